-- The MySQL / MariaDB account of the back-office admin command (`npm run backoffice`), and only
-- it: exactly the statements its commands run (tools/backoffice-admin/*.repository.ts), by
-- column, and no more. Neither the service's runtime account (sql/least-privilege.sql: no write
-- on bo_*) nor the migration account (sql/migration-account.sql: nothing on bo_*) can run it
-- (docs/operations.md, "Least-privilege database accounts").
--
--   bo_users                SELECT, INSERT by column  show, list (never password_hash); create-user
--   admin_api_users         SELECT (id), UPDATE (is_enabled)  enable, disable: users with no role but
--                           ApiUser (MySQL 8 needs the SELECT of the id its WHERE reads; MariaDB not)
--   bo_roles                SELECT, INSERT           roles by name; create-role
--   bo_user_roles           SELECT (user_id, role_id)  show, the roles of a user
--   admin_api_user_roles    SELECT, INSERT, DELETE   grant-role, revoke-role: the ApiUser role only
--   bo_shops                SELECT                   shops by code; list-shops
--   bo_user_shops           SELECT, INSERT, DELETE   grant-shop, revoke-shop
--   api_migrations          SELECT                   refuses to run while a migration is pending
--   api_login_failures      SELECT, DELETE           show (lock state), unlock
--   api_token_revocations   INSERT                   revoke-tokens
--
-- The two admin_ views are the database's own guard: the account has no UPDATE on bo_users and
-- no write on bo_user_roles, only on the views, which (WITH CHECK OPTION, with the rights of the
-- administrator who runs this script) add or remove the ApiUser role alone, and change is_enabled
-- alone, of users who hold no other role. It can read no password hash, change none, rename no
-- user, and grant no Administrator.
--
-- The api_ tables must exist (run it after the migrations). Run it as an administrator with the
-- back-office database as the default database, giving the password (16 characters or more) in
-- @admin_password; the client stops at the first error:
--
--   mariadb -uroot backoffice --init-command="SET @admin_password = 'a-third-long-secret'" < sql/admin-account.sql
--   DATABASE_URL=mysql://pos_api_admin:<password>@db-host:3306/backoffice npm run backoffice -- list
--
-- The account is 'pos_api_admin'@'%': narrow the host to where administrators work if you can.
-- Re-running is safe: an existing account keeps its password and has its grants reset to these;
-- the views are replaced.

-- An empty, missing or short password is refused before anything is created. MariaDB raises
-- the message; MySQL 8 refuses to prepare a SIGNAL (error 1295), which stops the script as well.
SET @refuse_password = IF(CHAR_LENGTH(COALESCE(@admin_password, '')) < 16, 'SIGNAL SQLSTATE ''45000'' SET MESSAGE_TEXT = ''Set @admin_password to 16 characters or more: sql/admin-account.sql creates no account without it''', 'DO 0');
PREPARE refuse_password FROM @refuse_password;
EXECUTE refuse_password;
DEALLOCATE PREPARE refuse_password;

SET @create_account = CONCAT('CREATE USER IF NOT EXISTS ''pos_api_admin''@''%'' IDENTIFIED BY ', QUOTE(@admin_password));
PREPARE create_account FROM @create_account;
EXECUTE create_account;
DEALLOCATE PREPARE create_account;

-- Every grant the account had before, on any database (an older script's wider ones included),
-- is taken back: it keeps exactly the grants below. One account per back-office database.
REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'pos_api_admin'@'%';

CREATE OR REPLACE SQL SECURITY DEFINER VIEW admin_api_user_roles AS
  SELECT user_id, role_id FROM bo_user_roles
   WHERE role_id IN (SELECT id FROM bo_roles WHERE name = 'ApiUser')
  WITH CHECK OPTION;
CREATE OR REPLACE SQL SECURITY DEFINER VIEW admin_api_users AS
  SELECT u.id, u.is_enabled FROM bo_users u
   WHERE NOT EXISTS (SELECT 1 FROM bo_user_roles ur JOIN bo_roles r ON r.id = ur.role_id
                      WHERE ur.user_id = u.id AND r.name <> 'ApiUser')
  WITH CHECK OPTION;

GRANT SELECT (id, username, display_name, email, is_enabled), INSERT (username, password_hash, display_name, email, is_enabled) ON bo_users TO 'pos_api_admin'@'%';
GRANT SELECT (id), UPDATE (is_enabled) ON admin_api_users TO 'pos_api_admin'@'%';
GRANT SELECT, INSERT ON bo_roles TO 'pos_api_admin'@'%';
GRANT SELECT (user_id, role_id) ON bo_user_roles TO 'pos_api_admin'@'%';
GRANT SELECT, INSERT, DELETE ON admin_api_user_roles TO 'pos_api_admin'@'%';
GRANT SELECT ON bo_shops TO 'pos_api_admin'@'%';
GRANT SELECT, INSERT, DELETE ON bo_user_shops TO 'pos_api_admin'@'%';
GRANT SELECT ON api_migrations TO 'pos_api_admin'@'%';
GRANT SELECT, DELETE ON api_login_failures TO 'pos_api_admin'@'%';
GRANT INSERT ON api_token_revocations TO 'pos_api_admin'@'%';
