-- The MySQL / MariaDB account that runs the service's migrations (`npm run migration:run`), and
-- only them. The service itself runs as the runtime account of sql/least-privilege.sql, which
-- cannot change the schema (docs/operations.md, "Database accounts").
--
--   the service's own tables (api_*)      SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP,
--                                         INDEX: create and change them, and keep api_migrations
--   back-office tables (bo_*, pos_*)      nothing: migrations never touch them
--
-- Each table is granted by name (MySQL has no wildcard for table names): a migration that adds
-- an api_ table adds its GRANT line here and in sql/least-privilege.sql
-- (test/operations/least-privilege.e2e-spec.ts fails until it does). Grants including CREATE may
-- name tables that do not exist yet, so this script runs before the first migration.
--
-- Run it as an administrator with the back-office database as the default database, giving the
-- account's password in @migration_password:
--
--   mariadb -uroot backoffice -e "SET @migration_password = 'another-long-secret'; SOURCE sql/migration-account.sql"
--   DATABASE_URL=mysql://pos_api_migrate:<password>@db-host:3306/backoffice npm run migration:run
--
-- The account is 'pos_api_migrate'@'%': narrow the host to where releases run if you can.
-- Re-running is safe: an existing account keeps its password.

SET @create_account = CONCAT('CREATE USER IF NOT EXISTS ''pos_api_migrate''@''%'' IDENTIFIED BY ', QUOTE(@migration_password));
PREPARE create_account FROM @create_account;
EXECUTE create_account;
DEALLOCATE PREPARE create_account;

GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX ON api_migrations TO 'pos_api_migrate'@'%';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX ON api_login_failures TO 'pos_api_migrate'@'%';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX ON api_token_revocations TO 'pos_api_migrate'@'%';
