import type { DataSource, EntityManager } from 'typeorm';
import { notFound } from './admin-errors';
import type { AdminUser } from './admin-users.repository';
import { guardedWrite } from './guarded-write';

type Db = DataSource | EntityManager;

export interface AdminShop {
  code: string;
  name: string;
  timeZone: string;
  currency: string;
  /** bo_shops.is_active: the back office's flag; the API serves inactive shops too. */
  active: boolean;
  /** The users granted the shop (bo_user_shops), whatever their roles or state. */
  users: string[];
}

/** What a user may do: roles (bo_roles, bo_user_roles) and shops (bo_shops, bo_user_shops). */
export class AdminGrantsRepository {
  constructor(private readonly db: Db) {}

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
    await guardedWrite(this.db, this.rolesGuard(role.name), (target) => ({
      sql: `INSERT INTO ${target} (user_id, role_id) VALUES (?, ?)`,
      parameters: [user.id, role.id],
    }));
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
    await guardedWrite(this.db, this.rolesGuard(role.name), (target) => ({
      sql: `DELETE FROM ${target} WHERE user_id = ? AND role_id = ?`,
      parameters: [user.id, role.id],
    }));
    return true;
  }

  /** bo_user_roles, or for the account of sql/admin-account.sql its view of the ApiUser role. */
  private rolesGuard(role: string) {
    return {
      table: 'bo_user_roles',
      view: 'admin_api_user_roles',
      refusal:
        'The database lets this account grant and revoke the ApiUser role only ' +
        `(admin_api_user_roles, sql/admin-account.sql): ask an administrator for ${role}.`,
    };
  }

  async requireShop(code: string): Promise<void> {
    const rows: unknown[] = await this.db.query('SELECT code FROM bo_shops WHERE code = ?', [code]);
    if (rows.length === 0) {
      const known: Array<{ code: string }> = await this.db.query(
        'SELECT code FROM bo_shops ORDER BY code',
      );
      const codes = known.length ? known.map((r) => r.code).join(', ') : '(none)';
      throw notFound(`Unknown shop '${code}' (shop codes are case-sensitive). Shops: ${codes}`);
    }
  }

  /** Every shop of bo_shops, by code, with the users it is granted to (by username). */
  async listShops(): Promise<AdminShop[]> {
    const shops: Array<{
      code: string;
      name: string;
      time_zone: string;
      currency: string;
      is_active: number | string;
    }> = await this.db.query(
      'SELECT code, name, time_zone, currency, is_active FROM bo_shops ORDER BY code',
    );
    const grants: Array<{ shop_code: string; username: string }> = await this.db.query(
      `SELECT us.shop_code, u.username FROM bo_user_shops us JOIN bo_users u ON u.id = us.user_id
        ORDER BY u.username`,
    );
    return shops.map((shop) => ({
      code: shop.code,
      name: shop.name,
      timeZone: shop.time_zone,
      currency: shop.currency,
      active: Number(shop.is_active) === 1,
      users: grants.filter((g) => g.shop_code === shop.code).map((g) => g.username),
    }));
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
}
