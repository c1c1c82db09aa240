-- The back-office schema (backoffice.mysql.sql, a verbatim copy of the given one), translated for
-- the embedded SQLite database used by the demo and the tests. Same tables, columns, keys and
-- indexes; only the types are SQLite's. Conventions the service relies on:
--   * DATETIME(3) columns hold text 'YYYY-MM-DD HH:MM:SS.mmm' (always three fraction digits),
--     so that text comparison is time order, exactly as on MySQL;
--   * DATE columns hold 'YYYY-MM-DD';
--   * DECIMAL columns have NUMERIC affinity; the service formats them back to the column's scale;
--   * usernames compare case-insensitively (COLLATE NOCASE), as the MySQL collation does.

CREATE TABLE IF NOT EXISTS bo_users (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  username      VARCHAR(64)  NOT NULL COLLATE NOCASE,
  password_hash VARCHAR(255) NOT NULL,
  display_name  VARCHAR(128) NULL,
  email         VARCHAR(254) NULL,
  is_enabled    TINYINT      NOT NULL DEFAULT 1,
  created_at    DATETIME     NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  updated_at    DATETIME     NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  CONSTRAINT uq_bo_users_username UNIQUE (username)
);

CREATE TABLE IF NOT EXISTS bo_roles (
  id   INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(64) NOT NULL COLLATE NOCASE,
  CONSTRAINT uq_bo_roles_name UNIQUE (name)
);

CREATE TABLE IF NOT EXISTS bo_user_roles (
  user_id    INTEGER  NOT NULL REFERENCES bo_users (id) ON DELETE CASCADE,
  role_id    INTEGER  NOT NULL REFERENCES bo_roles (id) ON DELETE CASCADE,
  granted_at DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  granted_by INTEGER  NULL,
  PRIMARY KEY (user_id, role_id)
);

CREATE TABLE IF NOT EXISTS bo_shops (
  code      VARCHAR(16)  NOT NULL PRIMARY KEY,
  name      VARCHAR(128) NOT NULL,
  time_zone VARCHAR(64)  NOT NULL DEFAULT 'Europe/Madrid',
  currency  CHAR(3)      NOT NULL DEFAULT 'EUR',
  is_active TINYINT      NOT NULL DEFAULT 1
);

CREATE TABLE IF NOT EXISTS bo_user_shops (
  user_id    INTEGER     NOT NULL REFERENCES bo_users (id) ON DELETE CASCADE,
  shop_code  VARCHAR(16) NOT NULL REFERENCES bo_shops (code) ON DELETE CASCADE,
  granted_at DATETIME    NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  PRIMARY KEY (user_id, shop_code)
);

CREATE TABLE IF NOT EXISTS pos_registers (
  shop_code VARCHAR(16) NOT NULL REFERENCES bo_shops (code),
  code      VARCHAR(16) NOT NULL,
  name      VARCHAR(64) NULL,
  PRIMARY KEY (shop_code, code)
);

CREATE TABLE IF NOT EXISTS pos_sales (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  shop_code        VARCHAR(16)   NOT NULL,
  register_code    VARCHAR(16)   NOT NULL,
  ticket_number    VARCHAR(32)   NOT NULL,
  kind             VARCHAR(8)    NOT NULL DEFAULT 'SALE',
  status           VARCHAR(12)   NOT NULL DEFAULT 'COMPLETED',
  business_date    DATE          NOT NULL,
  sold_at          DATETIME      NOT NULL,
  currency         CHAR(3)       NOT NULL,
  total_net        DECIMAL(15,2) NOT NULL,
  total_tax        DECIMAL(15,2) NOT NULL,
  total_discount   DECIMAL(15,2) NOT NULL DEFAULT 0,
  total_gross      DECIMAL(15,2) NOT NULL,
  employee_code    VARCHAR(32)   NULL,
  customer_code    VARCHAR(32)   NULL,
  original_sale_id INTEGER       NULL,
  created_at       DATETIME      NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  FOREIGN KEY (shop_code, register_code) REFERENCES pos_registers (shop_code, code)
);
CREATE INDEX IF NOT EXISTS ix_pos_sales_shop_sold ON pos_sales (shop_code, sold_at, id);
CREATE INDEX IF NOT EXISTS ix_pos_sales_sold ON pos_sales (sold_at, id);

CREATE TABLE IF NOT EXISTS pos_sale_lines (
  sale_id     INTEGER       NOT NULL REFERENCES pos_sales (id) ON DELETE CASCADE,
  line_no     INTEGER       NOT NULL,
  item_code   VARCHAR(32)   NOT NULL,
  description VARCHAR(255)  NOT NULL,
  quantity    DECIMAL(15,4) NOT NULL,
  unit_price  DECIMAL(15,4) NOT NULL,
  discount    DECIMAL(15,2) NOT NULL DEFAULT 0,
  tax_rate    DECIMAL(5,2)  NOT NULL,
  net         DECIMAL(15,2) NOT NULL,
  tax         DECIMAL(15,2) NOT NULL,
  gross       DECIMAL(15,2) NOT NULL,
  PRIMARY KEY (sale_id, line_no)
);

CREATE TABLE IF NOT EXISTS pos_payments (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  sale_id       INTEGER       NOT NULL REFERENCES pos_sales (id),
  shop_code     VARCHAR(16)   NOT NULL,
  register_code VARCHAR(16)   NOT NULL,
  paid_at       DATETIME      NOT NULL,
  method        VARCHAR(16)   NOT NULL,
  amount        DECIMAL(15,2) NOT NULL,
  currency      CHAR(3)       NOT NULL,
  card_brand    VARCHAR(16)   NULL,
  reference     VARCHAR(64)   NULL
);
CREATE INDEX IF NOT EXISTS ix_pos_payments_shop_paid ON pos_payments (shop_code, paid_at, id);
CREATE INDEX IF NOT EXISTS ix_pos_payments_sale ON pos_payments (sale_id);

CREATE TABLE IF NOT EXISTS pos_cash_movements (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  shop_code     VARCHAR(16)   NOT NULL,
  register_code VARCHAR(16)   NOT NULL,
  moved_at      DATETIME      NOT NULL,
  kind          VARCHAR(16)   NOT NULL,
  amount        DECIMAL(15,2) NOT NULL,
  currency      CHAR(3)       NOT NULL,
  reason        VARCHAR(255)  NULL,
  employee_code VARCHAR(32)   NULL,
  sale_id       INTEGER       NULL,
  FOREIGN KEY (shop_code, register_code) REFERENCES pos_registers (shop_code, code)
);
CREATE INDEX IF NOT EXISTS ix_pos_cash_movements_shop_moved ON pos_cash_movements (shop_code, moved_at, id);
