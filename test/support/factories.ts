import type { DataSource } from 'typeorm';
import { hashPassword } from '../../src/common/passwords/password-hasher';
import { testSecrets } from './log-secrets';

let sequence = 0;
const unique = (prefix: string): string => `${prefix}${process.pid % 1000}${++sequence}`;

export interface UserSpec {
  username?: string;
  password?: string;
  /** A ready-made hash (other formats than the default argon2id). */
  passwordHash?: string;
  roles?: string[];
  shops?: string[];
  enabled?: boolean;
}

export interface CreatedUser {
  id: string;
  username: string;
  password: string;
}

async function roleId(db: DataSource, name: string): Promise<string> {
  const found = await db.query<Array<{ id: number | string }>>(
    'SELECT id FROM bo_roles WHERE name = ?',
    [name],
  );
  if (found[0]) return String(found[0].id);
  await db.query('INSERT INTO bo_roles (name) VALUES (?)', [name]);
  return roleId(db, name);
}

export async function createShop(
  db: DataSource,
  code = unique('SH'),
  name = `Shop ${code}`,
): Promise<string> {
  await db.query('INSERT INTO bo_shops (code, name, time_zone, currency) VALUES (?, ?, ?, ?)', [
    code,
    name,
    'Europe/Madrid',
    'EUR',
  ]);
  await db.query('INSERT INTO pos_registers (shop_code, code, name) VALUES (?, ?, ?)', [
    code,
    'R1',
    'Register 1',
  ]);
  return code;
}

/** A back-office user with roles and shop grants (ApiUser by default). */
export async function createUser(db: DataSource, spec: UserSpec = {}): Promise<CreatedUser> {
  const username = spec.username ?? unique('user');
  const password = spec.password ?? `pw-${username}-secret`;
  const hash = spec.passwordHash ?? (await hashPassword(password));
  // Neither may ever reach a log (checked after each spec file: no-secrets-in-logs.ts).
  testSecrets.addPassword(password);
  testSecrets.addPasswordHash(hash);
  await db.query('INSERT INTO bo_users (username, password_hash, is_enabled) VALUES (?, ?, ?)', [
    username,
    hash,
    spec.enabled === false ? 0 : 1,
  ]);
  const [{ id }] = await db.query<Array<{ id: number | string }>>(
    'SELECT id FROM bo_users WHERE username = ?',
    [username],
  );
  for (const role of spec.roles ?? ['ApiUser']) {
    await db.query('INSERT INTO bo_user_roles (user_id, role_id) VALUES (?, ?)', [
      id,
      await roleId(db, role),
    ]);
  }
  for (const shop of spec.shops ?? []) await grantShop(db, String(id), shop);
  return { id: String(id), username, password };
}

export async function grantShop(db: DataSource, userId: string, shopCode: string): Promise<void> {
  await db.query('INSERT INTO bo_user_shops (user_id, shop_code) VALUES (?, ?)', [
    userId,
    shopCode,
  ]);
}

export async function setEnabled(db: DataSource, userId: string, enabled: boolean): Promise<void> {
  await db.query('UPDATE bo_users SET is_enabled = ? WHERE id = ?', [enabled ? 1 : 0, userId]);
}
