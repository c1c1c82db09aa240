-- The service's runtime MySQL / MariaDB account, with the least it needs (MySQL 8, MariaDB 10.11).
-- It cannot change the schema: migrations run as the account of sql/migration-account.sql.
--
--   back-office tables (bo_*, pos_*)      SELECT only: the service never writes them
--   api_login_failures                    SELECT, INSERT, UPDATE, DELETE (sign-in failure counts)
--   api_migrations                        SELECT (start-up refuses while a migration is pending)
--   api_token_revocations                 SELECT (revoke-tokens writes it with the admin's account)
--
-- MySQL has no wildcard for table names, so each table is granted by name: a migration that
-- adds an api_ table adds its GRANT line here (test/operations/least-privilege.e2e-spec.ts
-- fails until it does). Grants without CREATE need the table to exist, so this script runs
-- after the migrations.
--
-- Run it as an administrator with the back-office database as the default database, giving
-- the account's password in @api_password (the script stops on a syntax error without it):
--
--   mariadb -uroot backoffice -e "SET @api_password = 'a-long-random-secret'; SOURCE sql/least-privilege.sql"
--
-- The account is 'pos_api'@'%': narrow the host to the service's network if you can (edit the
-- name throughout). Re-running is safe: an existing account keeps its password
-- (ALTER USER 'pos_api'@'%' IDENTIFIED BY '...' changes it). Then:
--   DATABASE_URL=mysql://pos_api:<password>@db-host:3306/backoffice

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
