import type { DataSource } from 'typeorm';
import { hashPassword } from '../../src/common/passwords/password-hasher';
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
    shops: [0, 1, 2],
    enabled: true,
    note: 'ApiUser with 3 of the 4 shops',
  },
  {
    username: 'manager',
    password: 'manager-password',
    roles: ['StoreManager'],
    shops: [0, 1, 2, 3],
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

/**
 * Fills an empty embedded database with the demo: shops with registers and six weeks of sales,
 * payments and cash movements up to yesterday, one sale of the first shop rung up three days ago
 * and uploaded now (the last to arrive: the feeds show it, a period walk past its day does not),
 * and the demo users. Returns a summary, or
 * undefined when the database already had users.
 */
export async function seedDemoData(db: DataSource, now = new Date()): Promise<string | undefined> {
  const [{ n }] = await db.query<Array<{ n: number | string }>>(
    'SELECT COUNT(*) AS n FROM bo_users',
  );
  if (Number(n) > 0) return undefined;
  const days = 42;
  const start = new Date(now.getTime() - days * 86_400_000);
  const summary = await seedBusinessData(db, {
    seed: 20261122,
    shops: DEMO_SHOP_COUNT,
    days,
    salesPerDay: 30,
    startDate: isoDate(start),
  });
  const lateSale = await appendLateUpload(db, summary.shopCodes[0], now, DEMO_LATE_DAYS);
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
        summary.shopCodes[index],
      ]);
    }
  }
  return (
    `${summary.shopCodes.length} shops, ${summary.sales} sales from ${isoDate(start)} ` +
    `(sale ${lateSale} of ${summary.shopCodes[0]} uploaded ${DEMO_LATE_DAYS} days late), ${DEMO_USERS.length} users`
  );
}
