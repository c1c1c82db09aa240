-- The MySQL / MariaDB account of the back-office admin command (`npm run backoffice`), and only
-- it: exactly the statements its commands run (tools/backoffice-admin/*.repository.ts). Neither
-- the service's runtime account (sql/least-privilege.sql: no write on bo_*) nor the migration
-- account (sql/migration-account.sql: nothing on bo_*) can run it (docs/operations.md,
-- "Least-privilege database accounts").
--
--   bo_users                SELECT, INSERT, UPDATE   show, list; create-user; enable, disable
--   bo_roles                SELECT, INSERT           roles by name; create-role
--   bo_user_roles           SELECT, INSERT, DELETE   grant-role, revoke-role
--   bo_shops                SELECT                   shops by code; list-shops
--   bo_user_shops           SELECT, INSERT, DELETE   grant-shop, revoke-shop
--   api_migrations          SELECT                   refuses to run while a migration is pending
--   api_login_failures      SELECT, DELETE           show (lock state), unlock
--   api_token_revocations   INSERT                   revoke-tokens
--
-- The api_ tables must exist (run it after the migrations). Run it as an administrator with the
-- back-office database as the default database, giving the password in @admin_password:
--
--   mariadb -uroot backoffice -e "SET @admin_password = 'a-third-long-secret'; SOURCE sql/admin-account.sql"
--   DATABASE_URL=mysql://pos_api_admin:<password>@db-host:3306/backoffice npm run backoffice -- list
--
-- The account is 'pos_api_admin'@'%': narrow the host to where administrators work if you can.
-- Re-running is safe: an existing account keeps its password.

SET @create_account = CONCAT('CREATE USER IF NOT EXISTS ''pos_api_admin''@''%'' IDENTIFIED BY ', QUOTE(@admin_password));
PREPARE create_account FROM @create_account;
EXECUTE create_account;
DEALLOCATE PREPARE create_account;

GRANT SELECT, INSERT, UPDATE ON bo_users TO 'pos_api_admin'@'%';
GRANT SELECT, INSERT ON bo_roles TO 'pos_api_admin'@'%';
GRANT SELECT, INSERT, DELETE ON bo_user_roles TO 'pos_api_admin'@'%';
GRANT SELECT ON bo_shops TO 'pos_api_admin'@'%';
GRANT SELECT, INSERT, DELETE ON bo_user_shops TO 'pos_api_admin'@'%';
GRANT SELECT ON api_migrations TO 'pos_api_admin'@'%';
GRANT SELECT, DELETE ON api_login_failures TO 'pos_api_admin'@'%';
GRANT INSERT ON api_token_revocations TO 'pos_api_admin'@'%';
