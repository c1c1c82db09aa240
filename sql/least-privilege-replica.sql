-- The account the service reads replicas with (DATABASE_READ_URLS), the least it needs
-- (MariaDB 10.11, MySQL 8). Kept apart from sql/least-privilege.sql (the primary's accounts).
--
--   back-office tables (bo_*, pos_*)   SELECT only: the data routes' reads; of bo_users every
--                                      column but password_hash (sign-in reads the primary)
--   replication status                 SLAVE MONITOR (MariaDB 10.5.9+) or REPLICATION CLIENT
--                                      (MySQL, older MariaDB): SHOW REPLICA STATUS, for the lag
--
-- No api_ table: sign-in and the service's own tables always use the primary.
--
-- Run it ON THE PRIMARY as an administrator, with the back-office database as the default
-- database: the account and its grants replicate to every replica (run it on each replica with
-- sql_log_bin = 0 instead if replicas are set up not to replicate the mysql schema). Give the
-- password in @replica_password:
--
--   mariadb -uroot backoffice --init-command="SET @replica_password = 'a-long-random-secret'" < sql/least-privilege-replica.sql
--
-- Then: DATABASE_READ_URLS=mysql://pos_api_replica:<password>@replica-1:3306/backoffice,...
-- The account is 'pos_api_replica'@'%': narrow the host if you can (edit the name throughout).

-- An empty, missing or short password is refused before anything is created. MariaDB raises
-- the message; MySQL 8 refuses to prepare a SIGNAL (error 1295), which stops the script as well.
SET @refuse_password = IF(CHAR_LENGTH(COALESCE(@replica_password, '')) < 16, 'SIGNAL SQLSTATE ''45000'' SET MESSAGE_TEXT = ''Set @replica_password to 16 characters or more: sql/least-privilege-replica.sql creates no account without it''', 'DO 0');
PREPARE refuse_password FROM @refuse_password;
EXECUTE refuse_password;
DEALLOCATE PREPARE refuse_password;

SET @create_replica_account = CONCAT('CREATE USER IF NOT EXISTS ''pos_api_replica''@''%'' IDENTIFIED BY ', QUOTE(@replica_password));
PREPARE create_replica_account FROM @create_replica_account;
EXECUTE create_replica_account;
DEALLOCATE PREPARE create_replica_account;

-- Every grant the account had before, on any database (an older script's wider ones included),
-- is taken back: it keeps exactly the grants below. One account per back-office database.
REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'pos_api_replica'@'%';

GRANT SELECT (id, username, display_name, email, is_enabled, created_at, updated_at) ON bo_users TO 'pos_api_replica'@'%';
GRANT SELECT ON bo_roles TO 'pos_api_replica'@'%';
GRANT SELECT ON bo_user_roles TO 'pos_api_replica'@'%';
GRANT SELECT ON bo_shops TO 'pos_api_replica'@'%';
GRANT SELECT ON bo_user_shops TO 'pos_api_replica'@'%';
GRANT SELECT ON pos_registers TO 'pos_api_replica'@'%';
-- BEGIN generated from src/app.catalogue.ts by npm run sql:write: do not edit
GRANT SELECT ON pos_sales TO 'pos_api_replica'@'%';
GRANT SELECT ON pos_sale_lines TO 'pos_api_replica'@'%';
GRANT SELECT ON pos_payments TO 'pos_api_replica'@'%';
GRANT SELECT ON pos_cash_movements TO 'pos_api_replica'@'%';
-- END generated

-- Reading the lag. MariaDB calls it SLAVE MONITOR (alias REPLICA MONITOR); on MySQL replace the
-- line with: GRANT REPLICATION CLIENT ON *.* TO 'pos_api_replica'@'%';
GRANT SLAVE MONITOR ON *.* TO 'pos_api_replica'@'%';
