import type { QueryRunner } from 'typeorm';
import type { SeedIds, ShopSpec } from './business-data.types';
import { addDays } from './seed-format';
import { ID_TABLES } from './seed-tables';

/** What the database already holds that a new generation must continue from. */
export interface ExistingData {
  shops: ShopSpec[];
  firstIds: SeedIds<string>;
  nextTicketNumbers: Record<string, number>;
  /** The day after the latest business date of these shops; null when they have no sales. */
  nextBusinessDate: string | null;
}

interface ShopRecord {
  code: string;
  name: string;
  time_zone: string;
  currency: string;
}

/**
 * Resolves the requested shops against bo_shops / pos_registers (a shop found there is marked
 * existing and keeps its attributes and registers), and reads the next ids, ticket numbers
 * and business date.
 */
export async function readExistingData(
  runner: QueryRunner,
  isMysql: boolean,
  requested: readonly ShopSpec[],
): Promise<ExistingData> {
  const codes = requested.map((s) => s.code);
  const inList = codes.map(() => '?').join(', ');
  const shops = (await runner.query(
    `SELECT code, name, time_zone, currency FROM bo_shops WHERE code IN (${inList})`,
    codes,
  )) as ShopRecord[];
  const registers = (await runner.query(
    `SELECT shop_code, code FROM pos_registers WHERE shop_code IN (${inList})`,
    codes,
  )) as { shop_code: string; code: string }[];
  const byCode = new Map(shops.map((s) => [s.code, s]));
  const resolved = requested.map((spec): ShopSpec => {
    const found = byCode.get(spec.code);
    if (!found) return { ...spec, existing: false, registers: undefined };
    const codesOfShop = registers
      .filter((r) => r.shop_code === spec.code)
      .map((r) => r.code)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    return {
      code: found.code,
      name: found.name,
      timeZone: found.time_zone,
      currency: found.currency,
      existing: true,
      registers: codesOfShop.length > 0 ? codesOfShop : undefined,
      hours: spec.hours,
    };
  });

  const tickets = (await runner.query(
    `SELECT shop_code, register_code, MAX(ticket_number) AS ticket FROM pos_sales
      WHERE shop_code IN (${inList}) GROUP BY shop_code, register_code`,
    codes,
  )) as { shop_code: string; register_code: string; ticket: string | null }[];
  const nextTicketNumbers: Record<string, number> = {};
  for (const t of tickets) {
    const number = /(\d+)$/.exec(t.ticket ?? '');
    if (number) nextTicketNumbers[`${t.shop_code}/${t.register_code}`] = Number(number[1]) + 1;
  }

  const [latest] = (await runner.query(
    `SELECT MAX(business_date) AS d FROM pos_sales WHERE shop_code IN (${inList})`,
    codes,
  )) as { d: string | null }[];
  const latestDate = latest?.d ? String(latest.d).slice(0, 10) : null;

  return {
    shops: resolved,
    firstIds: await nextIds(runner, isMysql),
    nextTicketNumbers,
    nextBusinessDate: latestDate ? addDays(latestDate, 1) : null,
  };
}

/** The next id of each seeded table with ids, in the catalogue's order. */
async function nextIds(runner: QueryRunner, isMysql: boolean): Promise<SeedIds<string>> {
  const ids: Partial<SeedIds<string>> = {};
  for (const { key, table } of ID_TABLES) ids[key] = await nextId(runner, isMysql, table);
  return ids as SeedIds<string>;
}

/** MAX(id) + 1 as a decimal string, read as text so that no id is rounded. */
async function nextId(runner: QueryRunner, isMysql: boolean, tableName: string): Promise<string> {
  const expression = isMysql ? 'CAST(MAX(id) AS CHAR)' : 'CAST(MAX(id) AS TEXT)';
  const [row] = (await runner.query(`SELECT ${expression} AS id FROM ${tableName}`)) as {
    id: string | null;
  }[];
  return row?.id ? String(BigInt(row.id) + 1n) : '1';
}
