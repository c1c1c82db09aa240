import type { DataSource, EntityManager } from 'typeorm';
import { notFound } from './admin-errors';

type Db = DataSource | EntityManager;

export interface AdminUser {
  id: string;
  username: string;
  displayName: string | null;
  email: string | null;
  enabled: boolean;
}

export interface LockState {
  failures: number;
  firstFailureAt: string | null;
  lockedUntil: string | null;
}

export interface NewUser {
  username: string;
  passwordHash: string;
  displayName?: string;
  email?: string;
  enabled: boolean;
}

interface UserRow {
  id: number | string;
  username: string;
  display_name: string | null;
  email: string | null;
  is_enabled: number | string;
}

const SELECT_USERS = 'SELECT id, username, display_name, email, is_enabled FROM bo_users';

const toUser = (row: UserRow): AdminUser => ({
  id: String(row.id),
  username: row.username,
  displayName: row.display_name,
  email: row.email,
  enabled: Number(row.is_enabled) === 1,
});

const iso = (ms: number | string | null): string | null =>
  ms === null ? null : new Date(Number(ms)).toISOString();

/**
 * The admin command's SQL over the back-office user tables and the service's failure table.
 * Unlike the service, this WRITES back-office tables: it is the administrators' tool for where
 * the back-office application is not at hand (development, tests, demos, support).
 * Usernames and role names match case-insensitively (the schema's collations); shop codes exactly.
 */
export class BackofficeAdminRepository {
  constructor(private readonly db: Db) {}

  async findUser(username: string): Promise<AdminUser | undefined> {
    const rows: UserRow[] = await this.db.query(`${SELECT_USERS} WHERE username = ?`, [username]);
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  async user(username: string): Promise<AdminUser> {
    const user = await this.findUser(username);
    if (!user) throw notFound(`Unknown user '${username}'. List the users with: list`);
    return user;
  }

  async listUsers(): Promise<AdminUser[]> {
    const rows: UserRow[] = await this.db.query(`${SELECT_USERS} ORDER BY username`);
    return rows.map(toUser);
  }

  async createUser(user: NewUser): Promise<AdminUser> {
    await this.db.query(
      `INSERT INTO bo_users (username, password_hash, display_name, email, is_enabled)
       VALUES (?, ?, ?, ?, ?)`,
      [
        user.username,
        user.passwordHash,
        user.displayName ?? null,
        user.email ?? null,
        user.enabled ? 1 : 0,
      ],
    );
    return this.user(user.username);
  }

  /** Returns false when the user already was in that state. */
  async setEnabled(user: AdminUser, enabled: boolean): Promise<boolean> {
    if (user.enabled === enabled) return false;
    await this.db.query('UPDATE bo_users SET is_enabled = ? WHERE id = ?', [
      enabled ? 1 : 0,
      user.id,
    ]);
    return true;
  }

  async roleNames(): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.db.query(
      'SELECT name FROM bo_roles ORDER BY name',
    );
    return rows.map((r) => r.name);
  }

  /** The role's id and its name as stored (the lookup ignores case). */
  async role(name: string): Promise<{ id: string; name: string }> {
    const rows: Array<{ id: number | string; name: string }> = await this.db.query(
      'SELECT id, name FROM bo_roles WHERE name = ?',
      [name],
    );
    if (rows[0]) return { id: String(rows[0].id), name: rows[0].name };
    const known = await this.roleNames();
    throw notFound(
      `Unknown role '${name}'. Roles: ${known.length ? known.join(', ') : '(none)'}; ` +
        'create one with: create-role <role>',
    );
  }

  async createRole(name: string): Promise<boolean> {
    const exists: unknown[] = await this.db.query('SELECT id FROM bo_roles WHERE name = ?', [name]);
    if (exists.length > 0) return false;
    await this.db.query('INSERT INTO bo_roles (name) VALUES (?)', [name]);
    return true;
  }

  async rolesOf(user: AdminUser): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.db.query(
      `SELECT r.name FROM bo_user_roles ur JOIN bo_roles r ON r.id = ur.role_id
        WHERE ur.user_id = ? ORDER BY r.name`,
      [user.id],
    );
    return rows.map((r) => r.name);
  }

  /** Returns false when the user already had the role. */
  async grantRole(user: AdminUser, roleName: string): Promise<boolean> {
    const role = await this.role(roleName);
    const had: unknown[] = await this.db.query(
      'SELECT 1 AS x FROM bo_user_roles WHERE user_id = ? AND role_id = ?',
      [user.id, role.id],
    );
    if (had.length > 0) return false;
    await this.db.query('INSERT INTO bo_user_roles (user_id, role_id) VALUES (?, ?)', [
      user.id,
      role.id,
    ]);
    return true;
  }

  /** Returns false when the user did not have the role. */
  async revokeRole(user: AdminUser, roleName: string): Promise<boolean> {
    const role = await this.role(roleName);
    const had: unknown[] = await this.db.query(
      'SELECT 1 AS x FROM bo_user_roles WHERE user_id = ? AND role_id = ?',
      [user.id, role.id],
    );
    if (had.length === 0) return false;
    await this.db.query('DELETE FROM bo_user_roles WHERE user_id = ? AND role_id = ?', [
      user.id,
      role.id,
    ]);
    return true;
  }

  async requireShop(code: string): Promise<void> {
    const rows: unknown[] = await this.db.query('SELECT code FROM bo_shops WHERE code = ?', [code]);
    if (rows.length === 0) {
      throw notFound(`Unknown shop '${code}' (shop codes are case-sensitive).`);
    }
  }

  async shopsOf(user: AdminUser): Promise<string[]> {
    const rows: Array<{ shop_code: string }> = await this.db.query(
      'SELECT shop_code FROM bo_user_shops WHERE user_id = ? ORDER BY shop_code',
      [user.id],
    );
    return rows.map((r) => r.shop_code);
  }

  /** Returns false when the shop was already granted. */
  async grantShop(user: AdminUser, code: string): Promise<boolean> {
    await this.requireShop(code);
    if ((await this.shopsOf(user)).includes(code)) return false;
    await this.db.query('INSERT INTO bo_user_shops (user_id, shop_code) VALUES (?, ?)', [
      user.id,
      code,
    ]);
    return true;
  }

  /** Returns false when the shop was not granted. */
  async revokeShop(user: AdminUser, code: string): Promise<boolean> {
    await this.requireShop(code);
    if (!(await this.shopsOf(user)).includes(code)) return false;
    await this.db.query('DELETE FROM bo_user_shops WHERE user_id = ? AND shop_code = ?', [
      user.id,
      code,
    ]);
    return true;
  }

  /**
   * The service's failure bookkeeping of a name (api_login_failures compares names as the
   * back-office does, so any spelling finds it): the count of every address together and the
   * latest lock, of every address or of one; undefined when there is none.
   */
  async lockState(username: string): Promise<LockState | undefined> {
    const rows: Array<{
      client_key: string;
      failure_count: number | string;
      first_failure_at_ms: number | string;
      locked_until_ms: number | string | null;
    }> = await this.db.query(
      // A success leaves its rows at zero: only a count or a lock is bookkeeping to show.
      `SELECT client_key, failure_count, first_failure_at_ms, locked_until_ms FROM api_login_failures
        WHERE username_key = ? AND (failure_count > 0 OR locked_until_ms IS NOT NULL)`,
      [username],
    );
    if (rows.length === 0) return undefined;
    const everyAddress = rows.find((r) => r.client_key === '') ?? rows[0];
    const lockedUntil = Math.max(0, ...rows.map((r) => Number(r.locked_until_ms ?? 0)));
    return {
      failures: Number(everyAddress.failure_count),
      firstFailureAt: iso(everyAddress.first_failure_at_ms),
      lockedUntil: lockedUntil > 0 ? iso(lockedUntil) : null,
    };
  }

  /**
   * Clears the failure counts and locks of the typed name, from every address (any spelling the
   * back-office finds the same user by clears the same rows); returns false when there was none.
   */
  async unlock(username: string): Promise<boolean> {
    if (!(await this.lockState(username))) return false;
    await this.db.query('DELETE FROM api_login_failures WHERE username_key = ?', [username]);
    return true;
  }
}
