import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A back-office user as the token endpoint needs it. */
export interface BackofficeUser {
  id: string;
  username: string;
  passwordHash: string;
  isEnabled: boolean;
}

/**
 * Read model over bo_users, bo_user_roles/bo_roles and bo_user_shops. Read-only: the back-office
 * application owns these tables. Usernames match case-insensitively, as its collation does.
 */
@Injectable()
export class BackofficeUsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findByUsername(username: string): Promise<BackofficeUser | undefined> {
    const rows: Array<{
      id: string | number;
      username: string;
      password_hash: string;
      is_enabled: number | string;
    }> = await this.db.query(
      'SELECT id, username, password_hash, is_enabled FROM bo_users WHERE username = ? LIMIT 1',
      [username],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: String(row.id),
      username: row.username,
      passwordHash: row.password_hash,
      isEnabled: Number(row.is_enabled) === 1,
    };
  }

  async rolesOf(userId: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.db.query(
      `SELECT r.name FROM bo_user_roles ur JOIN bo_roles r ON r.id = ur.role_id
        WHERE ur.user_id = ? ORDER BY r.name`,
      [userId],
    );
    return rows.map((r) => r.name);
  }

  /** Shop codes granted to the user, in code order. */
  async shopCodesOf(userId: string): Promise<string[]> {
    const rows: Array<{ shop_code: string }> = await this.db.query(
      'SELECT shop_code FROM bo_user_shops WHERE user_id = ? ORDER BY shop_code',
      [userId],
    );
    return rows.map((r) => r.shop_code);
  }
}
