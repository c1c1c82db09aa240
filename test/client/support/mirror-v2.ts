import type { Json } from '../../../packages/client/src/mirror/jcs';
import {
  type Column,
  rowOf,
  SALE_LINES,
  SALES,
  stateDdl,
  type Table,
  TABLES,
} from '../../../packages/client/src/mirror/schema';
import type { DialectName } from '../../../packages/client/src/mirror/store';
import { storeOf } from './mirror-targets';

type ApiRecord = Record<string, Json>;

/** The tables a version 2 mirror had, sale_lines aside. */
const V2_TABLES = ['sales', 'payments', 'cash_movements'];

/**
 * The tables of a version 2 mirror exactly as the client of schema version 2 created them
 * (its schemaStatements, printed per dialect): the fixture a v2 to v3 upgrade starts from.
 */
const V2_DDL: Record<DialectName, string[]> = {
  sqlite: [
    'CREATE TABLE IF NOT EXISTS sales (\n  id INTEGER NOT NULL,\n  shop_code TEXT NOT NULL,\n  register_code TEXT NOT NULL,\n  ticket_number TEXT NOT NULL,\n  kind TEXT NOT NULL,\n  status TEXT NOT NULL,\n  business_date TEXT NOT NULL,\n  sold_at TEXT NOT NULL,\n  currency TEXT NOT NULL,\n  total_net TEXT NOT NULL,\n  total_tax TEXT NOT NULL,\n  total_discount TEXT NOT NULL,\n  total_gross TEXT NOT NULL,\n  employee_code TEXT,\n  customer_code TEXT,\n  original_sale_id INTEGER,\n  extra TEXT,\n  PRIMARY KEY (id)\n)',
    'CREATE INDEX IF NOT EXISTS sales_shop_day ON sales (shop_code, substr(sold_at, 1, 10), id)',
    'CREATE TABLE IF NOT EXISTS payments (\n  id INTEGER NOT NULL,\n  sale_id INTEGER NOT NULL,\n  shop_code TEXT NOT NULL,\n  register_code TEXT NOT NULL,\n  paid_at TEXT NOT NULL,\n  method TEXT NOT NULL,\n  amount TEXT NOT NULL,\n  currency TEXT NOT NULL,\n  card_brand TEXT,\n  reference TEXT,\n  extra TEXT,\n  PRIMARY KEY (id)\n)',
    'CREATE INDEX IF NOT EXISTS payments_shop_day ON payments (shop_code, substr(paid_at, 1, 10), id)',
    'CREATE TABLE IF NOT EXISTS cash_movements (\n  id INTEGER NOT NULL,\n  shop_code TEXT NOT NULL,\n  register_code TEXT NOT NULL,\n  moved_at TEXT NOT NULL,\n  kind TEXT NOT NULL,\n  amount TEXT NOT NULL,\n  currency TEXT NOT NULL,\n  reason TEXT,\n  employee_code TEXT,\n  sale_id INTEGER,\n  extra TEXT,\n  PRIMARY KEY (id)\n)',
    'CREATE INDEX IF NOT EXISTS cash_movements_shop_day ON cash_movements (shop_code, substr(moved_at, 1, 10), id)',
    'CREATE TABLE IF NOT EXISTS sale_lines (\n  sale_id INTEGER NOT NULL REFERENCES sales (id) ON DELETE CASCADE,\n  line_no INTEGER NOT NULL,\n  item_code TEXT NOT NULL,\n  description TEXT NOT NULL,\n  quantity TEXT NOT NULL,\n  unit_price TEXT NOT NULL,\n  discount TEXT NOT NULL,\n  tax_rate TEXT NOT NULL,\n  net TEXT NOT NULL,\n  tax TEXT NOT NULL,\n  gross TEXT NOT NULL,\n  extra TEXT,\n  PRIMARY KEY (sale_id, line_no)\n)',
  ],
  postgres: [
    'CREATE TABLE IF NOT EXISTS sales (\n  id BIGINT NOT NULL,\n  shop_code TEXT COLLATE "C" NOT NULL,\n  register_code TEXT COLLATE "C" NOT NULL,\n  ticket_number TEXT COLLATE "C" NOT NULL,\n  kind TEXT COLLATE "C" NOT NULL,\n  status TEXT COLLATE "C" NOT NULL,\n  business_date TEXT COLLATE "C" NOT NULL,\n  sold_at TEXT COLLATE "C" NOT NULL,\n  currency TEXT COLLATE "C" NOT NULL,\n  total_net TEXT COLLATE "C" NOT NULL,\n  total_tax TEXT COLLATE "C" NOT NULL,\n  total_discount TEXT COLLATE "C" NOT NULL,\n  total_gross TEXT COLLATE "C" NOT NULL,\n  employee_code TEXT COLLATE "C",\n  customer_code TEXT COLLATE "C",\n  original_sale_id BIGINT,\n  extra TEXT COLLATE "C",\n  PRIMARY KEY (id)\n)',
    'CREATE INDEX IF NOT EXISTS sales_shop_day ON sales (shop_code, substr(sold_at, 1, 10), id)',
    'CREATE TABLE IF NOT EXISTS payments (\n  id BIGINT NOT NULL,\n  sale_id BIGINT NOT NULL,\n  shop_code TEXT COLLATE "C" NOT NULL,\n  register_code TEXT COLLATE "C" NOT NULL,\n  paid_at TEXT COLLATE "C" NOT NULL,\n  method TEXT COLLATE "C" NOT NULL,\n  amount TEXT COLLATE "C" NOT NULL,\n  currency TEXT COLLATE "C" NOT NULL,\n  card_brand TEXT COLLATE "C",\n  reference TEXT COLLATE "C",\n  extra TEXT COLLATE "C",\n  PRIMARY KEY (id)\n)',
    'CREATE INDEX IF NOT EXISTS payments_shop_day ON payments (shop_code, substr(paid_at, 1, 10), id)',
    'CREATE TABLE IF NOT EXISTS cash_movements (\n  id BIGINT NOT NULL,\n  shop_code TEXT COLLATE "C" NOT NULL,\n  register_code TEXT COLLATE "C" NOT NULL,\n  moved_at TEXT COLLATE "C" NOT NULL,\n  kind TEXT COLLATE "C" NOT NULL,\n  amount TEXT COLLATE "C" NOT NULL,\n  currency TEXT COLLATE "C" NOT NULL,\n  reason TEXT COLLATE "C",\n  employee_code TEXT COLLATE "C",\n  sale_id BIGINT,\n  extra TEXT COLLATE "C",\n  PRIMARY KEY (id)\n)',
    'CREATE INDEX IF NOT EXISTS cash_movements_shop_day ON cash_movements (shop_code, substr(moved_at, 1, 10), id)',
    'CREATE TABLE IF NOT EXISTS sale_lines (\n  sale_id BIGINT NOT NULL REFERENCES sales (id) ON DELETE CASCADE,\n  line_no INTEGER NOT NULL,\n  item_code TEXT COLLATE "C" NOT NULL,\n  description TEXT COLLATE "C" NOT NULL,\n  quantity TEXT COLLATE "C" NOT NULL,\n  unit_price TEXT COLLATE "C" NOT NULL,\n  discount TEXT COLLATE "C" NOT NULL,\n  tax_rate TEXT COLLATE "C" NOT NULL,\n  net TEXT COLLATE "C" NOT NULL,\n  tax TEXT COLLATE "C" NOT NULL,\n  gross TEXT COLLATE "C" NOT NULL,\n  extra TEXT COLLATE "C",\n  PRIMARY KEY (sale_id, line_no)\n)',
  ],
  mysql: [
    'CREATE TABLE IF NOT EXISTS sales (\n  id BIGINT NOT NULL,\n  shop_code VARCHAR(255) NOT NULL,\n  register_code TEXT NOT NULL,\n  ticket_number TEXT NOT NULL,\n  kind TEXT NOT NULL,\n  status TEXT NOT NULL,\n  business_date TEXT NOT NULL,\n  sold_at VARCHAR(255) NOT NULL,\n  currency TEXT NOT NULL,\n  total_net TEXT NOT NULL,\n  total_tax TEXT NOT NULL,\n  total_discount TEXT NOT NULL,\n  total_gross TEXT NOT NULL,\n  employee_code TEXT,\n  customer_code TEXT,\n  original_sale_id BIGINT,\n  extra TEXT,\n  PRIMARY KEY (id),\n  INDEX sales_shop_day (shop_code, sold_at, id)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
    'CREATE TABLE IF NOT EXISTS payments (\n  id BIGINT NOT NULL,\n  sale_id BIGINT NOT NULL,\n  shop_code VARCHAR(255) NOT NULL,\n  register_code TEXT NOT NULL,\n  paid_at VARCHAR(255) NOT NULL,\n  method TEXT NOT NULL,\n  amount TEXT NOT NULL,\n  currency TEXT NOT NULL,\n  card_brand TEXT,\n  reference TEXT,\n  extra TEXT,\n  PRIMARY KEY (id),\n  INDEX payments_shop_day (shop_code, paid_at, id)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
    'CREATE TABLE IF NOT EXISTS cash_movements (\n  id BIGINT NOT NULL,\n  shop_code VARCHAR(255) NOT NULL,\n  register_code TEXT NOT NULL,\n  moved_at VARCHAR(255) NOT NULL,\n  kind TEXT NOT NULL,\n  amount TEXT NOT NULL,\n  currency TEXT NOT NULL,\n  reason TEXT,\n  employee_code TEXT,\n  sale_id BIGINT,\n  extra TEXT,\n  PRIMARY KEY (id),\n  INDEX cash_movements_shop_day (shop_code, moved_at, id)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
    'CREATE TABLE IF NOT EXISTS sale_lines (\n  sale_id BIGINT NOT NULL REFERENCES sales (id) ON DELETE CASCADE,\n  line_no INTEGER NOT NULL,\n  item_code TEXT NOT NULL,\n  description TEXT NOT NULL,\n  quantity TEXT NOT NULL,\n  unit_price TEXT NOT NULL,\n  discount TEXT NOT NULL,\n  tax_rate TEXT NOT NULL,\n  net TEXT NOT NULL,\n  tax TEXT NOT NULL,\n  gross TEXT NOT NULL,\n  extra TEXT,\n  PRIMARY KEY (sale_id, line_no)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
  ],
};

/** The fields a version 2 mirror had no column for: it kept them in `extra`. */
const NEW_IN_V3: Record<string, string[]> = {
  sales: ['soldAtUtc'],
  payments: ['paidAtUtc', 'businessDate'],
  'cash-movements': ['movedAtUtc', 'businessDate'],
};

const v2Columns = (table: Table): Column[] =>
  table.columns.filter((c) => !NEW_IN_V3[table.resource].includes(c.field));

/**
 * A version 2 mirror of `records` in `into` (a new SQLite file or an empty database), as that
 * client wrote it: its tables, its state (the feeds' cursors `cursors`, digest version 2) and
 * each record's row, the fields it had no column for in `extra`.
 */
export async function writeVersionTwo(
  into: string,
  records: Record<string, ApiRecord[]>,
  state: Record<string, string>,
): Promise<void> {
  const store = await storeOf(into);
  try {
    const d = store.dialect;
    await store.run(stateDdl(d));
    for (const statement of V2_DDL[d.name]) await store.run(statement);
    const q = d.quote;
    const all = { format: 'pos-read-mirror', schema_version: '2', digest_version: '2', ...state };
    for (const [key, value] of Object.entries(all)) {
      await store.run(`INSERT INTO mirror_state (${q('key')}, ${q('value')}) VALUES (?, ?)`, [
        key,
        value,
      ]);
    }
    const insert = async (table: string, columns: string[], row: unknown[]) =>
      store.run(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${row.map(() => '?').join(', ')})`,
        row,
      );
    for (const table of TABLES.filter((t) => V2_TABLES.includes(t.table))) {
      const columns = v2Columns(table);
      for (const record of records[table.resource]) {
        const row = rowOf(columns, record, table === SALES ? ['lines'] : []);
        await insert(table.table, [...columns.map((c) => c.column), 'extra'], row);
        for (const line of table === SALES ? (record.lines as ApiRecord[]) : []) {
          const lineColumns = ['sale_id', ...SALE_LINES.map((c) => c.column), 'extra'];
          await insert('sale_lines', lineColumns, [
            BigInt(record.id as string),
            ...rowOf(SALE_LINES, line),
          ]);
        }
      }
    }
  } finally {
    await store.close();
  }
}
