import { canonicalize } from 'json-canonicalize';
import type { DataSource } from 'typeorm';
import type { PosReadClient } from '../../../packages/client/src/index';
import { insertCashMovement, insertPayment, insertSale } from '../../support/business-factories';
import { mirrorTables } from './mirror-targets';

type Rec = { id: string } & Record<string, unknown>;

/** Today (UTC) plus `days`, `YYYY-MM-DD`: the mirror's window is relative to the real today. */
export const dayFromToday = (days: number): string =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const byId = (a: Rec, b: Rec) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);

/** What the API's lists return for the shops, per resource (the drawer sessions too), in id order. */
export async function apiLists(client: PosReadClient, shops: string[]) {
  const all: Record<string, Rec[]> = {
    sales: [],
    payments: [],
    'cash-movements': [],
    'cash-drawer-sessions': [],
  };
  for (const shopCode of shops) {
    all.sales.push(...((await client.sales.list({ shopCode }).toArray()) as Rec[]));
    all.payments.push(...((await client.payments.list({ shopCode }).toArray()) as Rec[]));
    all['cash-movements'].push(
      ...((await client.cashMovements.list({ shopCode }).toArray()) as Rec[]),
    );
    all['cash-drawer-sessions'].push(
      ...((await client.cashDrawerSessions.list({ shopCode }).toArray()) as Rec[]),
    );
  }
  for (const list of Object.values(all)) list.sort(byId);
  return all;
}

/** Polls until the file's tables equal the API's lists (a mirror that follows settles). */
export async function settled(
  file: string,
  client: PosReadClient,
  shops: string[],
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Until the mirror has created its file, there is nothing to read.
    const mine = await mirrorTables(file).catch(() => undefined);
    const theirs = await apiLists(client, shops);
    // Canonical JSON: the mirror keeps the fields it has no column for (issue 42's) in `extra`,
    // merged back after its columns, so the same record may list its members in another order.
    if (canonicalize(mine ?? null) === canonicalize(theirs)) return;
    if (Date.now() > deadline) expect(mine).toEqual(theirs);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const LINES = [
  { quantity: '1.000', unitPrice: '5.00', net: '5.00', tax: '1.05', gross: '6.05' },
  { quantity: '2.000', unitPrice: '2.50', net: '5.00', tax: '1.05', gross: '6.05' },
];

/**
 * The back office's writers of the acceptance scenario, each a committed change the mirror must
 * end up with: new rows, a late upload, a void, a changed line, a deleted movement, a changed
 * payment reference.
 */
export async function writeEverything(db: DataSource, shop: string, nextId: bigint) {
  const today = `${dayFromToday(0)} 08:00:00.000`;
  const late = `${dayFromToday(-2)} 07:30:00.000`;
  const id = (n: number) => nextId + BigInt(n);
  for (const [n, at] of [
    [0, today],
    [1, late],
  ] as const) {
    await insertSale(db, { id: id(n), shopCode: shop, soldAt: at, lines: LINES });
    await insertPayment(db, {
      id: id(n),
      saleId: id(n),
      shopCode: shop,
      paidAt: at,
      amount: '12.10',
    });
    await insertCashMovement(db, { id: id(n), shopCode: shop, movedAt: at, amount: '12.10' });
  }
  const [voided] = await db.query<Array<{ id: string }>>(
    "SELECT id FROM pos_sales WHERE shop_code = ? AND status = 'COMPLETED' ORDER BY id LIMIT 1",
    [shop],
  );
  await db.query("UPDATE pos_sales SET status = 'VOIDED' WHERE id = ?", [voided.id]);
  const [line] = await db.query<Array<{ sale_id: string }>>(
    'SELECT l.sale_id FROM pos_sale_lines l JOIN pos_sales s ON s.id = l.sale_id ' +
      'WHERE s.shop_code = ? ORDER BY l.sale_id DESC LIMIT 1',
    [shop],
  );
  await db.query(
    "UPDATE pos_sale_lines SET gross = '99.99', description = 'corrigé' WHERE sale_id = ? AND line_no = 1",
    [line.sale_id],
  );
  await db.query(
    'DELETE FROM pos_cash_movements WHERE id = (SELECT id FROM (SELECT id FROM pos_cash_movements WHERE shop_code = ? ORDER BY id LIMIT 1) AS first_movement)',
    [shop],
  );
  await db.query(
    "UPDATE pos_payments SET reference = 'AUTH-4711' WHERE id = (SELECT id FROM (SELECT id FROM pos_payments WHERE shop_code = ? ORDER BY id LIMIT 1) AS first_payment)",
    [shop],
  );
}

/** A sale inserted and left uncommitted while `during` runs, then rolled back. */
export async function whileUncommitted(
  db: DataSource,
  sale: { id: bigint; shopCode: string },
  during: () => Promise<void>,
): Promise<void> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const inside = runner.manager as unknown as DataSource;
    await insertSale(inside, { ...sale, soldAt: `${dayFromToday(0)} 09:00:00.000`, lines: LINES });
    await during();
    await runner.rollbackTransaction();
  } finally {
    await runner.release();
  }
}
