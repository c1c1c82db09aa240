-- The service's runtime MySQL / MariaDB account, with the least it needs (MySQL 8, MariaDB 10.11).
-- It cannot change the schema: migrations run as the account of sql/migration-account.sql.
--
--   back-office tables (bo_*, pos_*)      SELECT only: the service never writes them
--   api_login_failures                    SELECT, INSERT, UPDATE, DELETE (sign-in failure counts)
--   api_migrations                        SELECT (start-up refuses while a migration is pending)
--   api_token_revocations                 SELECT (revoke-tokens writes it with the admin's account)
--   api_change_watermarks                 SELECT (the binary log's reader writes it: sql/binlog-account.sql)
--
-- MySQL has no wildcard for table names, so each table is granted by name: a migration that
-- adds an api_ table adds its GRANT line here (test/operations/least-privilege.e2e-spec.ts
-- fails until it does). Grants without CREATE need the table to exist, so this script runs
-- after the migrations.
--
-- Run it as an administrator with the back-office database as the default database, giving
-- the account's password in @api_password (16 characters or more: the script refuses a shorter one); the client stops at the first error:
--
--   mariadb -uroot backoffice --init-command="SET @api_password = 'a-long-random-secret'" < sql/least-privilege.sql
--
-- The account is 'pos_api'@'%': narrow the host to the service's network if you can (edit the
-- name throughout). Re-running is safe: an existing account keeps its password
-- (ALTER USER 'pos_api'@'%' IDENTIFIED BY '...' changes it). Then:
--   DATABASE_URL=mysql://pos_api:<password>@db-host:3306/backoffice

-- An empty, missing or short password is refused before anything is created. MariaDB raises
-- the message; MySQL 8 refuses to prepare a SIGNAL (error 1295), which stops the script as well.
SET @refuse_password = IF(CHAR_LENGTH(COALESCE(@api_password, '')) < 16, 'SIGNAL SQLSTATE ''45000'' SET MESSAGE_TEXT = ''Set @api_password to 16 characters or more: sql/least-privilege.sql creates no account without it''', 'DO 0');
PREPARE refuse_password FROM @refuse_password;
EXECUTE refuse_password;
DEALLOCATE PREPARE refuse_password;

SET @create_account = CONCAT('CREATE USER IF NOT EXISTS ''pos_api''@''%'' IDENTIFIED BY ', QUOTE(@api_password));
PREPARE create_account FROM @create_account;
EXECUTE create_account;
DEALLOCATE PREPARE create_account;

-- Back-office tables: read only.
GRANT SELECT ON bo_users TO 'pos_api'@'%';
GRANT SELECT ON bo_roles TO 'pos_api'@'%';
GRANT SELECT ON bo_user_roles TO 'pos_api'@'%';
GRANT SELECT ON bo_shops TO 'pos_api'@'%';
GRANT SELECT ON bo_user_shops TO 'pos_api'@'%';
GRANT SELECT ON pos_registers TO 'pos_api'@'%';
-- BEGIN generated from src/app.catalogue.ts by npm run sql:write: do not edit
GRANT SELECT ON pos_sales TO 'pos_api'@'%';
GRANT SELECT ON pos_sale_lines TO 'pos_api'@'%';
GRANT SELECT ON pos_payments TO 'pos_api'@'%';
GRANT SELECT ON pos_cash_movements TO 'pos_api'@'%';
-- END generated

-- The service's own tables: its migrations' bookkeeping (read only) and the sign-in failure counts.
GRANT SELECT ON api_migrations TO 'pos_api'@'%';
GRANT SELECT, INSERT, UPDATE, DELETE ON api_login_failures TO 'pos_api'@'%';
GRANT SELECT ON api_token_revocations TO 'pos_api'@'%';
GRANT SELECT ON api_change_watermarks TO 'pos_api'@'%';
