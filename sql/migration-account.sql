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
--   mariadb -uroot backoffice --init-command="SET @migration_password = 'another-long-secret'" < sql/migration-account.sql
--   DATABASE_URL=mysql://pos_api_migrate:<password>@db-host:3306/backoffice npm run migration:run
--
-- The account is 'pos_api_migrate'@'%': narrow the host to where releases run if you can.
-- Re-running is safe: an existing account keeps its password.

-- An empty, missing or short password is refused before anything is created. MariaDB raises
-- the message; MySQL 8 refuses to prepare a SIGNAL (error 1295), which stops the script as well.
SET @refuse_password = IF(CHAR_LENGTH(COALESCE(@migration_password, '')) < 16, 'SIGNAL SQLSTATE ''45000'' SET MESSAGE_TEXT = ''Set @migration_password to 16 characters or more: sql/migration-account.sql creates no account without it''', 'DO 0');
PREPARE refuse_password FROM @refuse_password;
EXECUTE refuse_password;
DEALLOCATE PREPARE refuse_password;

SET @create_account = CONCAT('CREATE USER IF NOT EXISTS ''pos_api_migrate''@''%'' IDENTIFIED BY ', QUOTE(@migration_password));
PREPARE create_account FROM @create_account;
EXECUTE create_account;
DEALLOCATE PREPARE create_account;

GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX ON api_migrations TO 'pos_api_migrate'@'%';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX ON api_login_failures TO 'pos_api_migrate'@'%';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX ON api_token_revocations TO 'pos_api_migrate'@'%';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX ON api_change_watermarks TO 'pos_api_migrate'@'%';
