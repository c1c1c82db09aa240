import { applyBackofficeSchema } from '../database/backoffice-schema';
import { databaseKinds, type MigratedDatabase } from '../database/testing/migrated-database';
import { BackofficeUsersRepository } from './backoffice-users.repository';

describe.each(databaseKinds())(
  `${BackofficeUsersRepository.name} ($kind)`,
  ({ describe, open }) => {
    describe('against the back-office tables', () => {
      let database: MigratedDatabase;
      let users: BackofficeUsersRepository;
      const ids: Record<string, string> = {};

      beforeAll(async () => {
        database = await open();
        const { db } = database;
        await applyBackofficeSchema(db);
        for (const [name, enabled] of [
          ['alice', 1],
          ['bob', 0],
          ['carol', 1],
        ] as const) {
          await db.query(
            'INSERT INTO bo_users (username, password_hash, is_enabled) VALUES (?, ?, ?)',
            [name, `hash-of-${name}`, enabled],
          );
          const [row] = await db.query<Array<{ id: number }>>(
            'SELECT id FROM bo_users WHERE username = ?',
            [name],
          );
          ids[name] = String(row.id);
        }
        for (const role of ['ApiUser', 'Administrator', 'Cashier']) {
          await db.query('INSERT INTO bo_roles (name) VALUES (?)', [role]);
        }
        const roleId = async (name: string) =>
          (
            await db.query<Array<{ id: number }>>('SELECT id FROM bo_roles WHERE name = ?', [name])
          )[0].id;
        for (const [user, role] of [
          ['alice', 'Cashier'],
          ['alice', 'ApiUser'],
          ['carol', 'Administrator'],
        ]) {
          await db.query('INSERT INTO bo_user_roles (user_id, role_id) VALUES (?, ?)', [
            ids[user],
            await roleId(role),
          ]);
        }
        for (const shop of ['S2', 'S1', 's1']) {
          await db.query('INSERT INTO bo_shops (code, name) VALUES (?, ?)', [shop, `Shop ${shop}`]);
        }
        for (const [user, shop] of [
          ['alice', 'S2'],
          ['alice', 'S1'],
          ['carol', 's1'],
        ]) {
          await db.query('INSERT INTO bo_user_shops (user_id, shop_code) VALUES (?, ?)', [
            ids[user],
            shop,
          ]);
        }
        users = new BackofficeUsersRepository(db);
      });
      afterAll(() => database?.close());

      it('should find a user by name with their hash and whether they are enabled', async () => {
        await expect(users.findByUsername('alice')).resolves.toEqual({
          id: ids.alice,
          username: 'alice',
          passwordHash: 'hash-of-alice',
          isEnabled: true,
        });
        await expect(users.findByUsername('bob')).resolves.toMatchObject({
          id: ids.bob,
          isEnabled: false,
        });
      });

      it("should match a name case-insensitively, as the back office's collation does", async () => {
        await expect(users.findByUsername('ALICE')).resolves.toMatchObject({ id: ids.alice });
      });

      it('should find no user for a name the back office does not have', async () => {
        await expect(users.findByUsername('mallory')).resolves.toBeUndefined();
        await expect(users.findByUsername('')).resolves.toBeUndefined();
      });

      it("should list a user's roles by name, in name order, and none of another user's", async () => {
        await expect(users.rolesOf(ids.alice)).resolves.toEqual(['ApiUser', 'Cashier']);
        await expect(users.rolesOf(ids.carol)).resolves.toEqual(['Administrator']);
        await expect(users.rolesOf(ids.bob)).resolves.toEqual([]);
      });

      it("should list a user's shop codes in code order, exactly as granted", async () => {
        await expect(users.shopCodesOf(ids.alice)).resolves.toEqual(['S1', 'S2']);
        await expect(users.shopCodesOf(ids.carol)).resolves.toEqual(['s1']);
        await expect(users.shopCodesOf(ids.bob)).resolves.toEqual([]);
      });
    });
  },
);
