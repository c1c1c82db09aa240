import { MigrationInterface, QueryRunner } from 'typeorm';

/** What bo_users.username is declared with in the back-office schema (used when it is unreadable). */
const BACKOFFICE_COLLATION = { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' };
const NAME_PATTERN = /^[a-z0-9_]{1,64}$/;

/** The character set and collation of bo_users.username on this server, as declared. */
async function usernameCollation(
  queryRunner: QueryRunner,
): Promise<{ charset: string; collation: string }> {
  const rows = (await queryRunner.query(
    `SELECT CHARACTER_SET_NAME AS charset, COLLATION_NAME AS collation FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'bo_users' AND COLUMN_NAME = 'username'`,
  )) as Array<{ charset: string | null; collation: string | null }>;
  const found = rows[0];
  const valid = (v: string | null | undefined): v is string => !!v && NAME_PATTERN.test(v);
  // A utf8mb4 column only: any typed name must fit the key, or an odd name would be a 500.
  return valid(found?.charset) && valid(found?.collation) && found.charset === 'utf8mb4'
    ? { charset: found.charset, collation: found.collation }
    : BACKOFFICE_COLLATION;
}

/**
 * Sign-in failures keyed by the typed name, compared exactly as the back-office compares
 * usernames (the collation of bo_users.username, declared here and never the database's
 * default), and by client address ('' for the row that counts every address of the name).
 * The name is the key whether a user has it or not, so the lock of a name never depends on
 * whether it exists, and the database, not code, does the folding. The table holds transient
 * counts only: recreating it forgets failures in progress and nothing else.
 */
export class LoginFailuresByNameAndAddress1764000000000 implements MigrationInterface {
  name = 'LoginFailuresByNameAndAddress1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS api_login_failures');
    if (queryRunner.connection.options.type === 'mysql') {
      const { charset, collation } = await usernameCollation(queryRunner);
      await queryRunner.query(
        `CREATE TABLE api_login_failures (
           username_key VARCHAR(256) CHARACTER SET ${charset} COLLATE ${collation} NOT NULL,
           client_key VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
           failure_count INT NOT NULL DEFAULT 0,
           first_failure_at_ms BIGINT NOT NULL,
           locked_until_ms BIGINT NULL,
           PRIMARY KEY (username_key, client_key)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
      );
      return;
    }
    // SQLite: bo_users.username is COLLATE NOCASE (ASCII case only), so the key is too.
    await queryRunner.query(
      `CREATE TABLE api_login_failures (
         username_key VARCHAR(256) NOT NULL COLLATE NOCASE,
         client_key VARCHAR(64) NOT NULL COLLATE BINARY,
         failure_count INTEGER NOT NULL DEFAULT 0,
         first_failure_at_ms BIGINT NOT NULL,
         locked_until_ms BIGINT NULL,
         PRIMARY KEY (username_key, client_key)
       )`,
    );
  }

  /** Back to the first table's shape (CreateLoginFailures1763800000000); counts are forgotten. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS api_login_failures');
    await queryRunner.query(
      `CREATE TABLE api_login_failures (
         username_key VARCHAR(64) NOT NULL PRIMARY KEY,
         failure_count INT NOT NULL DEFAULT 0,
         first_failure_at_ms BIGINT NOT NULL,
         locked_until_ms BIGINT NULL
       )`,
    );
  }
}
