-- The account that follows the primary's binary log (BINLOG_DATABASE_URL, issue 57), the least
-- it needs (MariaDB 10.11, MySQL 8). Kept apart from the runtime account (sql/least-privilege.sql).
--
--   replication                        REPLICATION SLAVE: read the binary log as a replica does;
--                                      REPLICATION CLIENT (MariaDB: BINLOG MONITOR, its alias):
--                                      the log's current position
--   the digests' tables (pos_*, bo_shops)
--                                      SELECT: find a sale line's sale, a sale's payments
--   api_change_watermarks              SELECT, INSERT, UPDATE: its watermarks
--
-- AS SENSITIVE AS AN ADMINISTRATOR: the binary log carries every row of every table written,
-- bo_users.password_hash included, whatever the grants on the tables. The service reads and
-- keeps nothing of the tables it does not watch (docs/operations.md, "The binary log"), but the
-- password must be kept as an administrator's is.
--
-- Run it ON THE PRIMARY as an administrator, after the migrations, with the back-office
-- database as the default database, giving the password in @binlog_password:
--
--   mariadb -uroot backoffice --init-command="SET @binlog_password = 'a-long-random-secret'" < sql/binlog-account.sql
--
-- Then: BINLOG_DATABASE_URL=mysql://pos_api_binlog:<password>@primary:3306/backoffice
-- The account is 'pos_api_binlog'@'%': narrow the host to the service's network if you can.

-- An empty, missing or short password is refused before anything is created. MariaDB raises
-- the message; MySQL 8 refuses to prepare a SIGNAL (error 1295), which stops the script as well.
SET @refuse_password = IF(CHAR_LENGTH(COALESCE(@binlog_password, '')) < 16, 'SIGNAL SQLSTATE ''45000'' SET MESSAGE_TEXT = ''Set @binlog_password to 16 characters or more: sql/binlog-account.sql creates no account without it''', 'DO 0');
PREPARE refuse_password FROM @refuse_password;
EXECUTE refuse_password;
DEALLOCATE PREPARE refuse_password;

SET @create_binlog_account = CONCAT('CREATE USER IF NOT EXISTS ''pos_api_binlog''@''%'' IDENTIFIED BY ', QUOTE(@binlog_password));
PREPARE create_binlog_account FROM @create_binlog_account;
EXECUTE create_binlog_account;
DEALLOCATE PREPARE create_binlog_account;

-- Every grant the account had before is taken back: it keeps exactly the grants below.
REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'pos_api_binlog'@'%';

GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'pos_api_binlog'@'%';
GRANT SELECT, INSERT, UPDATE ON api_change_watermarks TO 'pos_api_binlog'@'%';
-- BEGIN generated from src/app.catalogue.ts by npm run sql:write: do not edit
GRANT SELECT ON pos_sales TO 'pos_api_binlog'@'%';
GRANT SELECT ON pos_sale_lines TO 'pos_api_binlog'@'%';
GRANT SELECT ON bo_shops TO 'pos_api_binlog'@'%';
GRANT SELECT ON pos_payments TO 'pos_api_binlog'@'%';
GRANT SELECT ON pos_cash_movements TO 'pos_api_binlog'@'%';
-- END generated
