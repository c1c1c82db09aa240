import { createConnection } from 'mysql2/promise';
import { setBusinessDateIndex } from './bench-database';
import { median } from './day-close';
import type { Compared, ResultRow } from './result-row';
import type { Bench } from './scenarios';
import { busiestShop } from './sync-database';

/** What `--only opendrawer` measured (issue 54, item 3). */
export interface OpenDrawerRun {
  shop: string;
  date: string;
  /** Seconds of the 1-day close, without the planted drawer and with it, alternating. */
  without: number[];
  with: number[];
}

const REGISTER = 'BENCH-NOCOUNT';
const ROUNDS_AT_LEAST = 5;

/**
 * A drawer never counted: one register of the busiest shop opened on the 11th day of the data
 * with a float and never counted nor opened again (the months of the shop's other movements come
 * after it). The 1-day close of that day without the drawer and with it, alternating, the drawer
 * inserted and deleted between (nothing of it is left after the run).
 */
export async function measureOpenDrawer(bench: Bench): Promise<OpenDrawerRun> {
  await setBusinessDateIndex(bench.options.databaseUrl, true);
  const shop = await busiestShop(bench.options.databaseUrl);
  const date = new Date(
    Date.parse(`${bench.dataset.from.slice(0, 10)}T00:00:00Z`) + 10 * 86_400_000,
  )
    .toISOString()
    .slice(0, 10);
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const path = `/api/v1.0/business-days?ShopCode=${shop}&From=${date}&To=${next}`;
  const db = await createConnection(bench.options.databaseUrl);
  const close = async () => {
    const started = process.hrtime.bigint();
    const response = await fetch(bench.service.baseUrl + path, {
      headers: { authorization: `Bearer ${bench.token}`, 'accept-encoding': 'identity' },
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`the close answered ${response.status}: ${body}`);
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  const plant = async (present: boolean) => {
    await db.query('DELETE FROM pos_cash_movements WHERE shop_code = ? AND register_code = ?', [
      shop,
      REGISTER,
    ]);
    if (!present) return;
    await db.query(
      'INSERT INTO pos_cash_movements (shop_code, register_code, moved_at, kind, amount, currency) ' +
        "VALUES (?, ?, ?, 'OPENING_FLOAT', 100.00, 'EUR')",
      [shop, REGISTER, `${date} 08:00:00.000`],
    );
  };
  const run: OpenDrawerRun = { shop, date, without: [], with: [] };
  try {
    await db.query('INSERT INTO pos_registers (shop_code, code, name) VALUES (?, ?, ?)', [
      shop,
      REGISTER,
      'never counted (bench)',
    ]);
    await close(); // warm
    for (let round = 0; round < Math.max(ROUNDS_AT_LEAST, bench.options.rounds); round++) {
      await plant(false);
      run.without.push(await close());
      await plant(true);
      run.with.push(await close());
    }
    bench.say(
      `  1-day close of ${shop} on ${date}: ${median(run.without).toFixed(2)} s without, ` +
        `${median(run.with).toFixed(2)} s with a drawer never counted`,
    );
    return run;
  } finally {
    await plant(false);
    await db.query('DELETE FROM pos_registers WHERE shop_code = ? AND code = ?', [shop, REGISTER]);
    await db.end();
  }
}

export function openDrawerRows(run: OpenDrawerRun, compared: Compared): ResultRow[] {
  return [
    compared(
      `1-day close of ${run.shop} on ${run.date} with a drawer never counted vs without, median of ${run.with.length}`,
      median(run.with),
      median(run.without),
      (v) => `${v.toFixed(2)} s`,
      { atMost: 1.5 },
    ),
  ];
}
