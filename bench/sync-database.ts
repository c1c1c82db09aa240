import { type Connection, createConnection, type ResultSetHeader } from 'mysql2/promise';

/** Two shops of the benchmark's own, made for the waiting scenarios and dropped after them. */
export const ACTIVE_SHOP = 'BENCHSYNC';
export const QUIET_SHOP = 'BENCHQUIET';
const SHOPS = [ACTIVE_SHOP, QUIET_SHOP];

async function dropShops(db: Connection): Promise<void> {
  // Only sales are written by the scenarios (no lines, payments or movements).
  await db.query('DELETE FROM pos_sales WHERE shop_code IN (?)', [SHOPS]);
  await db.query('DELETE FROM pos_registers WHERE shop_code IN (?)', [SHOPS]);
  await db.query('DELETE FROM bo_shops WHERE code IN (?)', [SHOPS]);
}

/** Runs `body` with the two shops (and a register each) in the benchmark's database. */
export async function withBenchShops<T>(url: string, body: () => Promise<T>): Promise<T> {
  const db = await createConnection(url);
  try {
    await dropShops(db);
    for (const shop of SHOPS) {
      await db.query(
        "INSERT INTO bo_shops (code, name, time_zone, currency) VALUES (?, ?, 'Europe/Madrid', 'EUR')",
        [shop, shop],
      );
      await db.query("INSERT INTO pos_registers (shop_code, code, name) VALUES (?, 'R1', 'R1')", [
        shop,
      ]);
    }
    return await body();
  } finally {
    await dropShops(db);
    await db.end();
  }
}

/** A writer of the back office: one sale of ACTIVE_SHOP per transaction; its id once committed. */
export async function saleWriter(url: string) {
  const db = await createConnection(url);
  return {
    async commitSale(ticket: string): Promise<string> {
      await db.beginTransaction();
      const [result] = await db.query<ResultSetHeader>(
        `INSERT INTO pos_sales (shop_code, register_code, ticket_number, business_date, sold_at,
           currency, total_net, total_tax, total_gross) VALUES (?, 'R1', ?, CURDATE(), NOW(3), 'EUR', 1, 0, 1)`,
        [ACTIVE_SHOP, ticket],
      );
      await db.commit();
      return String(result.insertId);
    },
    end: () => db.end(),
  };
}

/** The shop with the most sales. */
export async function busiestShop(url: string): Promise<string> {
  const db = await createConnection(url);
  try {
    const [rows] = await db.query(
      'SELECT shop_code FROM pos_sales GROUP BY shop_code ORDER BY COUNT(*) DESC LIMIT 1',
    );
    return (rows as Array<{ shop_code: string }>)[0].shop_code;
  } finally {
    await db.end();
  }
}

/**
 * The middle sale of `shop` in [from, to) (local dates), whose customer code the digest-cache
 * scenario changes behind the service's back (`change`), and puts back (`restore`); and the
 * server's rows read so far (global Rows_read on MariaDB, Innodb_rows_read on MySQL).
 */
export async function saleToChange(url: string, shop: string, from: string, to: string) {
  const db = await createConnection(url);
  const range = [shop, `${from} 00:00:00`, `${to} 00:00:00`];
  const where = 'WHERE shop_code = ? AND sold_at >= ? AND sold_at < ?';
  let sale: { id: number; customer_code: string | null } | undefined;
  try {
    const [counted] = await db.query(`SELECT COUNT(*) AS n FROM pos_sales ${where}`, range);
    const middle = Math.floor(Number((counted as Array<{ n: number }>)[0].n) / 2);
    const [rows] = await db.query(
      `SELECT id, customer_code FROM pos_sales ${where} ORDER BY sold_at, id LIMIT 1 OFFSET ${middle}`,
      range,
    );
    sale = (rows as Array<{ id: number; customer_code: string | null }>)[0];
    if (!sale) throw new Error(`the shop ${shop} has no sale from ${from} to ${to} to change`);
  } catch (error) {
    await db.end();
    throw error;
  }
  const { id, customer_code: original } = sale;
  const set = (code: string | null) =>
    db.query('UPDATE pos_sales SET customer_code = ? WHERE id = ?', [code, id]);
  return {
    change: (code: string) => set(code),
    restore: () => set(original),
    async rowsRead(): Promise<number> {
      const [status] = await db.query(
        "SHOW GLOBAL STATUS WHERE Variable_name IN ('Rows_read', 'Innodb_rows_read')",
      );
      return Number((status as Array<{ Value: string }>)[0]?.Value ?? NaN);
    },
    end: () => db.end(),
  };
}
