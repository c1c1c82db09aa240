import type { DataSource, EntityManager } from 'typeorm';
import { notFound } from './admin-errors';
import { guardedWrite } from './guarded-write';

type Db = DataSource | EntityManager;

export interface AdminUser {
  id: string;
  username: string;
  displayName: string | null;
  email: string | null;
  enabled: boolean;
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

/** bo_users: find, list, create, enable and disable back-office users. */
export class AdminUsersRepository {
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
    await guardedWrite(
      this.db,
      {
        table: 'bo_users',
        view: 'admin_api_users',
        refusal:
          `The database lets this account enable and disable only users who hold no role but ` +
          `ApiUser (admin_api_users, sql/admin-account.sql): ${user.username} holds another.`,
      },
      (target) => ({
        sql: `UPDATE ${target} SET is_enabled = ? WHERE id = ?`,
        parameters: [enabled ? 1 : 0, user.id],
      }),
    );
    return true;
  }
}
