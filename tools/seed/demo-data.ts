import type { DataSource } from 'typeorm';
import { FROM_EXAMPLE, TO_EXAMPLE } from '../../src/common/query/filter-parameters';
import { hashPassword } from '../../src/common/passwords/password-hasher';
import { addDays } from './seed-format';
import type { ShopSpec } from './business-data.types';
import { seedBusinessData } from './business-data.writer';
import { appendLateUpload } from './late-upload';

export interface DemoUser {
  username: string;
  password: string;
  roles: string[];
  /** Indexes into the generated shops. */
  shops: number[];
  enabled: boolean;
  note: string;
}

const DEMO_SHOP_COUNT = 4;

/** The demo's users; main.ts prints them at start-up. */
export const DEMO_USERS: DemoUser[] = [
  {
    username: 'demo',
    password: 'demo-password',
    roles: ['ApiUser'],
    shops: [0, 1, 2, 4],
    enabled: true,
    note: 'ApiUser with 4 of the 5 shops, the bar among them',
  },
  {
    username: 'manager',
    password: 'manager-password',
    roles: ['StoreManager'],
    shops: [0, 1, 2, 3, 4],
    enabled: true,
    note: 'back-office user without ApiUser (403)',
  },
  {
    username: 'former',
    password: 'former-password',
    roles: ['ApiUser'],
    shops: [0],
    enabled: false,
    note: 'disabled ApiUser (401)',
  },
];

const ROLES = ['Administrator', 'StoreManager', 'Cashier', 'ApiUser'];

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** How many days late the demo's late upload reached the back office. */
export const DEMO_LATE_DAYS = 3;

const DAY_MS = 86_400_000;
const SALES_PER_DAY = 30;

/**
 * The period the documented examples name (From and To of the portal's "Try it out", the README,
 * the client's README): the demo holds it whatever the day, so every example shows data.
 */
export const DEMO_EXAMPLES_PERIOD = {
  from: FROM_EXAMPLE.slice(0, 10),
  to: TO_EXAMPLE.slice(0, 10),
};

const daysFrom = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * The demo's fifth shop: a bar in Madrid open from 20:00 until 04:00, so its business day runs
 * past midnight (a sale at 01:30 keeps the evening's business date, its drawer is counted after
 * midnight), and its nights cross both changes of the clock of 2026.
 */
export const DEMO_BAR: ShopSpec = {
  code: 'SHOP005',
  name: 'Bar Sol Malasaña',
  timeZone: 'Europe/Madrid',
  hours: { open: 20, close: 28 },
};

/**
 * The business days around the fall-back change of 2026 (Europe/Madrid, 2026-10-25 03:00 back to
 * 02:00): the bar's night of the 24th sells at 02:xx twice. The spring-forward night (28 to 29
 * March, no 02:xx at all) is in the examples' period.
 */
export const DEMO_FALL_BACK_DAYS = { from: '2026-10-22', to: '2026-10-29' };

type DateRange = { from: string; to: string };

/** Half-open date ranges, sorted and merged where they overlap or touch; empty ones dropped. */
function mergedRanges(ranges: readonly DateRange[]): DateRange[] {
  const merged: DateRange[] = [];
  for (const range of [...ranges]
    .filter((r) => r.from < r.to)
    .sort((a, b) => (a.from < b.from ? -1 : 1))) {
    const last = merged.at(-1);
    if (last && range.from <= last.to) last.to = [last.to, range.to].sort()[1];
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * Fills an empty embedded database with the demo: shops with registers, then sales, payments and
 * cash movements of the examples' period (DEMO_EXAMPLES_PERIOD) and of the six weeks up to
 * yesterday, in that order of arrival, then the bar's (DEMO_BAR: those days but the last, and the
 * fall-back week; its latest drawer not counted), one sale of the first shop rung up three days ago
 * and uploaded now (the last to arrive: the feeds show it, a period walk past its day does not),
 * and the demo users. Returns a summary, or
 * undefined when the database already had users.
 */
export async function seedDemoData(db: DataSource, now = new Date()): Promise<string | undefined> {
  const [{ n }] = await db.query<Array<{ n: number | string }>>(
    'SELECT COUNT(*) AS n FROM bo_users',
  );
  if (Number(n) > 0) return undefined;
  const examples = DEMO_EXAMPLES_PERIOD;
  const generate = { seed: 20261122, shops: DEMO_SHOP_COUNT, salesPerDay: SALES_PER_DAY };
  const summary = await seedBusinessData(db, {
    ...generate,
    days: daysFrom(examples.from, examples.to),
    startDate: examples.from,
  });
  // Six weeks up to yesterday, after the examples' period when the two would overlap.
  const recentStart = [isoDate(new Date(now.getTime() - 42 * DAY_MS)), examples.to].sort()[1];
  const recentDays = daysFrom(recentStart, isoDate(now));
  const recent =
    recentDays > 0
      ? await seedBusinessData(db, { ...generate, days: recentDays, startDate: recentStart })
      : undefined;
  // The bar: the examples' period, the fall-back week and the recent weeks but the last day (its
  // night would run into today), then its latest drawer left uncounted: a session still open.
  const barGenerate = { ...generate, shops: [DEMO_BAR] };
  let barSales = 0;
  const barDays = mergedRanges([
    examples,
    DEMO_FALL_BACK_DAYS,
    { from: recentStart, to: addDays(isoDate(now), -1) },
  ]);
  for (const range of barDays) {
    const days = daysFrom(range.from, range.to);
    barSales += (await seedBusinessData(db, { ...barGenerate, days, startDate: range.from })).sales;
  }
  const [count] = await db.query<Array<{ id: number | string }>>(
    `SELECT id FROM pos_cash_movements WHERE shop_code = ? AND kind = 'CLOSING_COUNT'
      ORDER BY moved_at DESC, id DESC LIMIT 1`,
    [DEMO_BAR.code],
  );
  const openDay = addDays(barDays[barDays.length - 1].to, -1);
  await db.query('DELETE FROM pos_cash_movements WHERE id = ?', [count.id]);
  const shopCodes = [...summary.shopCodes, DEMO_BAR.code];
  const lateSale = await appendLateUpload(db, shopCodes[0], now, DEMO_LATE_DAYS);
  for (const role of ROLES) await db.query('INSERT INTO bo_roles (name) VALUES (?)', [role]);
  for (const user of DEMO_USERS) {
    await db.query(
      'INSERT INTO bo_users (username, password_hash, display_name, is_enabled) VALUES (?, ?, ?, ?)',
      [
        user.username,
        await hashPassword(user.password),
        `Demo ${user.username}`,
        user.enabled ? 1 : 0,
      ],
    );
    const [{ id }] = await db.query<Array<{ id: number | string }>>(
      'SELECT id FROM bo_users WHERE username = ?',
      [user.username],
    );
    for (const role of user.roles) {
      await db.query(
        'INSERT INTO bo_user_roles (user_id, role_id) SELECT ?, id FROM bo_roles WHERE name = ?',
        [id, role],
      );
    }
    for (const index of user.shops) {
      await db.query('INSERT INTO bo_user_shops (user_id, shop_code) VALUES (?, ?)', [
        id,
        shopCodes[index],
      ]);
    }
  }
  const sales = summary.sales + (recent?.sales ?? 0) + barSales;
  return (
    `${shopCodes.length} shops, ${sales} sales from ${examples.from} to ` +
    `${summary.lastDate} (the examples' period)` +
    `${recent ? ` and from ${recent.firstDate} to ${recent.lastDate}` : ''} ` +
    `(sale ${lateSale} of ${shopCodes[0]} uploaded ${DEMO_LATE_DAYS} days late; ` +
    `${DEMO_BAR.code} a bar open past midnight, a drawer of its ${openDay} not counted yet), ${DEMO_USERS.length} users`
  );
}
