import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { hashPassword } from '../src/common/passwords/password-hasher';
import { backofficeTablesExist, splitSqlStatements } from '../src/database/backoffice-schema';
import { buildDataSourceOptions } from '../src/database/data-source.options';
import { type RecommendedIndex, recommendedIndexes } from '../src/database/recommended-indexes';
import { CATALOGUE } from '../src/app.catalogue';
import { seedBusinessData } from '../tools/seed/business-data.writer';
import { addDays } from '../tools/seed/seed-format';
import type { Dataset, DatasetPlan } from './bench-dataset';

const SCHEMA_FILE = path.resolve(__dirname, '../../src/database/schema/backoffice.mysql.sql');
const BENCH_USERNAME = 'bench-api-user';
/** A throw-away account in a throw-away database; the service signs it in like any other. */
const BENCH_PASSWORD = 'bench-password-of-a-local-database';

type Say = (line: string) => void;

/** Creates the database named by the URL when it does not exist (utf8mb4, as the back office). */
async function createDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`BENCH_DATABASE_URL: bad database '${name}'`);
  parsed.pathname = '/';
  const connection = await createConnection(parsed.toString().replace(/^mariadb:/, 'mysql:'));
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await connection.end();
  }
}

const count = async (db: DataSource, table: string): Promise<number> => {
  const [row] = await db.query<Array<{ n: string }>>(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row.n);
};

async function seedIfEmpty(db: DataSource, plan: DatasetPlan, say: Say): Promise<boolean> {
  const sales = await count(db, 'pos_sales');
  if (sales >= plan.minSales) return false;
  if (sales > 0) {
    throw new Error(
      `The benchmark database holds ${sales} sales, fewer than ${plan.minSales} (an interrupted ` +
        'seed?). Drop it or point BENCH_DATABASE_URL at a new database.',
    );
  }
  say(
    `Seeding ${plan.shops} shops × ${plan.days} days × ~${plan.salesPerDay} sales a day ` +
      '(the project generator; a few minutes for the full dataset)…',
  );
  let last = 0;
  const summary = await seedBusinessData(db, {
    seed: plan.seed,
    shops: plan.shops,
    days: plan.days,
    salesPerDay: plan.salesPerDay,
    startDate: plan.startDate,
    onProgress: (p) => {
      if (p.elapsedMs - last < 10_000) return;
      last = p.elapsedMs;
      const rate = Math.round(p.rows / (p.elapsedMs / 1000));
      say(`  ${p.businessDate}: ${p.rows.toLocaleString('en-US')} rows (${rate} rows/s)`);
    },
  });
  say(
    `Seeded ${summary.sales} sales, ${summary.lines} lines, ${summary.payments} payments, ` +
      `${summary.cashMovements} cash movements in ${(summary.elapsedMs / 1000).toFixed(0)} s`,
  );
  if (summary.sales < plan.minSales) {
    throw new Error(`The generator made ${summary.sales} sales, fewer than ${plan.minSales}`);
  }
  return true;
}

/** The benchmark's ApiUser with every shop granted; made once (argon2id, like any user). */
async function ensureUser(db: DataSource, shops: string[]): Promise<string> {
  const find = () =>
    db.query<Array<{ id: string }>>(
      'SELECT CAST(id AS CHAR) AS id FROM bo_users WHERE username = ?',
      [BENCH_USERNAME],
    );
  let [user] = await find();
  if (!user) {
    await db.query('INSERT INTO bo_users (username, password_hash, is_enabled) VALUES (?, ?, 1)', [
      BENCH_USERNAME,
      await hashPassword(BENCH_PASSWORD),
    ]);
    [user] = await find();
  }
  await db.query('INSERT IGNORE INTO bo_roles (name) VALUES (?)', ['ApiUser']);
  await db.query(
    "INSERT IGNORE INTO bo_user_roles (user_id, role_id) SELECT ?, id FROM bo_roles WHERE name = 'ApiUser'",
    [user.id],
  );
  for (const shop of shops) {
    await db.query('INSERT IGNORE INTO bo_user_shops (user_id, shop_code) VALUES (?, ?)', [
      user.id,
      shop,
    ]);
  }
  return user.id;
}

/** The row the deep page follows, in the order of the service: (sold_at, id) over every shop. */
async function deepPosition(db: DataSource, plan: DatasetPlan, sales: number) {
  const row = plan.deepRow === 'middle' ? Math.floor(sales / 2) : plan.deepRow;
  const [found] = await db.query<Array<{ t: string; id: string }>>(
    'SELECT sold_at AS t, CAST(id AS CHAR) AS id FROM pos_sales ORDER BY sold_at, id LIMIT 1 OFFSET ?',
    [row - 1],
  );
  if (!found) throw new Error(`No sale at position ${row}`);
  return { time: found.t, id: found.id, row };
}

/**
 * Makes the benchmark database ready: created if missing, back-office tables, the service's
 * migrations, the generated data (unless already there) and the benchmark's user.
 */
export async function prepareDatabase(url: string, plan: DatasetPlan, say: Say): Promise<Dataset> {
  await createDatabase(url);
  const db = new DataSource(buildDataSourceOptions({ databaseUrl: url, dataDir: '.' }));
  await db.initialize();
  try {
    if (!(await backofficeTablesExist(db))) {
      for (const statement of splitSqlStatements(readFileSync(SCHEMA_FILE, 'utf8'))) {
        await db.query(statement);
      }
    }
    await db.runMigrations();
    const seededNow = await seedIfEmpty(db, plan, say);
    const shopRows = await db.query<Array<{ code: string }>>(
      'SELECT code FROM bo_shops ORDER BY code',
    );
    const shopCodes = shopRows.map((s) => s.code);
    const userId = await ensureUser(db, shopCodes);
    const sales = await count(db, 'pos_sales');
    const from = `${plan.startDate}T00:00:00`;
    const to = `${addDays(plan.startDate, plan.days)}T00:00:00`;
    const [walk] = await db.query<Array<{ n: string }>>(
      'SELECT COUNT(*) AS n FROM pos_sales WHERE shop_code = ? AND sold_at >= ? AND sold_at < ?',
      [shopCodes[0], from.replace('T', ' '), to.replace('T', ' ')],
    );
    return {
      sales,
      lines: await count(db, 'pos_sale_lines'),
      payments: await count(db, 'pos_payments'),
      cashMovements: await count(db, 'pos_cash_movements'),
      shopCodes,
      walkShop: shopCodes[0],
      walkShopSales: Number(walk.n),
      from,
      to,
      deep: await deepPosition(db, plan, sales),
      user: { id: userId, username: BENCH_USERNAME, password: BENCH_PASSWORD },
      seededNow,
    };
  } finally {
    await db.destroy();
  }
}

/** Where the deep pages of one shop start: the middle of its sales by id, and by (sold_at, id). */
export interface ShopMiddle {
  id: string;
  sold: { time: string; id: string };
  sales: number;
}

/** The middle of a shop's sales, in arrival (id) order and in the lists' (sold_at, id) order. */
export async function shopMiddle(url: string, shop: string): Promise<ShopMiddle> {
  const db = new DataSource(buildDataSourceOptions({ databaseUrl: url, dataDir: '.' }));
  await db.initialize();
  try {
    const [{ n }] = await db.query<Array<{ n: string }>>(
      'SELECT COUNT(*) AS n FROM pos_sales WHERE shop_code = ?',
      [shop],
    );
    const middle = Math.floor(Number(n) / 2);
    const [byId] = await db.query<Array<{ id: string }>>(
      'SELECT CAST(id AS CHAR) AS id FROM pos_sales WHERE shop_code = ? ORDER BY id LIMIT 1 OFFSET ?',
      [shop, middle],
    );
    const [bySold] = await db.query<Array<{ t: string; id: string }>>(
      'SELECT sold_at AS t, CAST(id AS CHAR) AS id FROM pos_sales WHERE shop_code = ? ORDER BY sold_at, id LIMIT 1 OFFSET ?',
      [shop, middle],
    );
    return { id: byId.id, sold: { time: bySold.t, id: bySold.id }, sales: Number(n) };
  } finally {
    await db.destroy();
  }
}

/** Adds or drops an index of sql/recommended-indexes.sql. */
async function setIndex(url: string, index: RecommendedIndex, present: boolean): Promise<void> {
  const { name, table, columns } = index;
  const db = new DataSource(buildDataSourceOptions({ databaseUrl: url, dataDir: '.' }));
  await db.initialize();
  try {
    const [{ n }] = await db.query<Array<{ n: string }>>(
      `SELECT COUNT(*) AS n FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ?`,
      [table, name],
    );
    const exists = Number(n) > 0;
    if (present && !exists) {
      await db.query(`CREATE INDEX ${name} ON ${table} (${columns.join(', ')})`);
    }
    if (!present && exists) await db.query(`DROP INDEX ${name} ON ${table}`);
  } finally {
    await db.destroy();
  }
}

/** Every index of sql/recommended-indexes.sql, as the recommended set-up has them. */
export async function setRecommendedIndexes(url: string): Promise<void> {
  for (const index of recommendedIndexes(CATALOGUE)) await setIndex(url, index, true);
}

/** Adds or drops the recommended index of that name. */
function setRecommendedIndex(url: string, name: string, present: boolean): Promise<void> {
  const index = recommendedIndexes(CATALOGUE).find((i) => i.name === name);
  if (!index) throw new Error(`${name} is not an index of sql/recommended-indexes.sql`);
  return setIndex(url, index, present);
}

/** The sales feed's index, on (shop_code, id). */
export const setFeedIndex = (url: string, present: boolean): Promise<void> =>
  setRecommendedIndex(url, 'ix_pos_sales_shop_id', present);

/** The sales' business dates' index: the reads by business date. */
export const setBusinessDateIndex = (url: string, present: boolean): Promise<void> =>
  setRecommendedIndex(url, 'ix_pos_sales_shop_business_date', present);
