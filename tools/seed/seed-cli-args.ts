import { parseArgs } from 'node:util';
import { MAX_SALES_PER_DAY } from './business-data.options';
import { BATCH_KEYS, TABLES } from './bulk-insert';
import { ID_TABLES } from './seed-tables';
import { isIsoDate } from './seed-format';
import type { SeedSummary } from './business-data.writer';

export const SEED_USAGE = `Usage: npm run seed -- [options]
       node dist/tools/seed/seed.cli.js [options]

Fills the database named by DATABASE_URL (or the embedded SQLite file in DATA_DIR) with
generated point-of-sale data, creating the back-office tables first if they are missing.
Appends: ids, ticket numbers and dates continue after what is already there.

Options:
  --shops <n>          shops SHOP001..; existing ones are reused (default 5, max 9999)
  --days <n>           business days (default 30)
  --sales-per-day <n>  average sales per shop and day (default 40, max ${MAX_SALES_PER_DAY})
  --seed <n>           random seed, 0..4294967295; same seed, same data (default 42)
  --start <date>       first business date YYYY-MM-DD (default: the day after the shops'
                       latest business date; on an empty database, the days end yesterday)
  -h, --help           show this help`;

interface SeedCliOptions {
  shops: number;
  days: number;
  salesPerDay: number;
  seed: number;
  startDate?: string;
}

export type SeedCliCommand = { help: true } | { help: false; options: SeedCliOptions };

/** A mistake on the command line: the message is for the user, no stack trace needed. */
export class SeedArgsError extends Error {}

export function parseSeedArgs(argv: readonly string[]): SeedCliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        shops: { type: 'string' },
        days: { type: 'string' },
        'sales-per-day': { type: 'string' },
        seed: { type: 'string' },
        start: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new SeedArgsError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };
  const start = values.start as string | undefined;
  if (start !== undefined && !isIsoDate(start)) {
    throw new SeedArgsError(`--start must be a date YYYY-MM-DD, got '${start}'`);
  }
  return {
    help: false,
    options: {
      shops: integer(values.shops, '--shops', 5, 1, 9_999),
      days: integer(values.days, '--days', 30, 1, 36_600),
      salesPerDay: decimal(values['sales-per-day'], '--sales-per-day', 40, MAX_SALES_PER_DAY),
      seed: integer(values.seed, '--seed', 42, 0, 0xffffffff),
      ...(start !== undefined ? { startDate: start } : {}),
    },
  };
}

export function formatSeedSummary(summary: SeedSummary): string {
  const n = (value: number): string => value.toLocaleString('en-US');
  const seconds = summary.elapsedMs / 1000;
  const rate = summary.totalRows / Math.max(seconds, 0.001);
  const tables = BATCH_KEYS.map((key): [string, number] => [TABLES[key].table, summary[key]]);
  const codes = summary.shopCodes;
  const shopList =
    codes.length <= 6 ? codes.join(', ') : `${codes[0]} … ${codes[codes.length - 1]}`;
  return [
    `Seeded ${summary.database}: ${codes.length} shops (${shopList}), ${summary.firstDate} to ${summary.lastDate}`,
    ...tables.map(([table, count]) => `  ${table.padEnd(20)}${n(count).padStart(12)}`),
    `  ${'total'.padEnd(20)}${n(summary.totalRows).padStart(12)} rows in ${seconds.toFixed(1)} s ` +
      `(${n(Math.round(rate))} rows/s)`,
    `  next ids: ${ID_TABLES.map((t) => `${t.ids.label} ${summary.nextIds[t.key]}`).join(', ')}`,
  ].join('\n');
}

function integer(
  raw: string | boolean | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  const text = String(raw);
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new SeedArgsError(`${name} must be an integer from ${min} to ${max}, got '${text}'`);
  }
  return value;
}

function decimal(
  raw: string | boolean | undefined,
  name: string,
  fallback: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  const text = String(raw);
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value > max) {
    throw new SeedArgsError(`${name} must be a number from 0 to ${max}, got '${text}'`);
  }
  return value;
}
