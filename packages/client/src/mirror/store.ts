/**
 * The one place the mirror's SQL dialects differ (packages/client/README.md, "Mirror"): a store
 * runs statements written with `?` placeholders, one at a time, and a transaction's statements
 * on their own. SQLite (a file), PostgreSQL and MySQL/MariaDB implement it; the pages, the days,
 * the checks and the repairs above it are the same code for all three.
 */

export type Row = Record<string, unknown>;

/** Statements of one connection: `?` placeholders, ids passed as BigInt or decimal strings. */
export interface SqlRunner {
  all(sql: string, parameters?: unknown[]): Promise<Row[]>;
  run(sql: string, parameters?: unknown[]): Promise<void>;
  /**
   * PostgreSQL with pg-copy-streams installed: `COPY … FROM STDIN` (`sql`) of `text`, rows in
   * COPY's text format (copyText). Absent elsewhere: rows go by multi-row INSERTs.
   */
  copy?(sql: string, text: string): Promise<void>;
}

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** What is written differently per database. */
export interface Dialect {
  name: DialectName;
  /** An identifier quoted (`key` is reserved in MySQL). */
  quote(name: string): string;
  /** The column types of the mirror's values. */
  types: { id: string; int: string; text: string; keyText: string };
  /** Appended to each CREATE TABLE (MySQL: engine and binary collation). */
  tableOptions: string;
  /** An INSERT of `rows` rows that replaces a row of the same key. */
  upsert(table: string, columns: string[], key: string[], rows: number): string;
  /** The condition "the day of `column` is in [?, ?)" (placeholders: from, to). */
  dayRange(column: string): string;
  /** The index of a table by shop and day: its CREATE statement, or inline for MySQL. */
  dayIndex(table: string, dayColumn: string): { statement?: string; inline?: string };
  /** False where DDL commits on its own (MySQL): creation then resumes where it stopped. */
  transactionalDdl: boolean;
  /** Placeholders of one statement: SQLite and MySQL allow more, PostgreSQL 65,535. */
  maxParameters: number;
  /** The query of a table's column names (`name`), the table its one placeholder. */
  columnsSql: string;
}

/** A mirror's database, opened: a SQLite file, or a PostgreSQL or MySQL database. */
export interface MirrorStore extends SqlRunner {
  readonly dialect: Dialect;
  /** Where it is, for messages: the file, or the URL without its password. */
  readonly where: string;
  /** The names of the tables there (of the URL's database or current schema). */
  tables(): Promise<string[]>;
  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** Called once the database is known to be a mirror, before its first write (SQLite: WAL). */
  beforeWrites?(): Promise<void>;
  close(): Promise<void>;
}

const values = (columns: number, rows: number) =>
  Array.from({ length: rows }, () => `(${Array(columns).fill('?').join(', ')})`).join(', ');

const insert = (quote: (n: string) => string, table: string, columns: string[], rows: number) =>
  `INTO ${table} (${columns.map(quote).join(', ')}) VALUES ${values(columns.length, rows)}`;

const substrDay = (column: string) =>
  `substr(${column}, 1, 10) >= ? AND substr(${column}, 1, 10) < ?`;

export const SQLITE: Dialect = {
  name: 'sqlite',
  quote: (n) => `"${n}"`,
  types: { id: 'INTEGER', int: 'INTEGER', text: 'TEXT', keyText: 'TEXT' },
  tableOptions: '',
  upsert: (table, columns, _key, rows) =>
    `INSERT OR REPLACE ${insert(SQLITE.quote, table, columns, rows)}`,
  dayRange: substrDay,
  dayIndex: (table, day) => ({
    statement: `CREATE INDEX ${table}_shop_day ON ${table} (shop_code, substr(${day}, 1, 10), id)`,
  }),
  transactionalDdl: true,
  maxParameters: 32_766,
  columnsSql: 'SELECT name FROM pragma_table_info(?)',
};

/** PostgreSQL's `ON CONFLICT (key) DO UPDATE SET` every other column to the row inserted. */
export const onConflictUpdate = (columns: string[], key: string[]) => {
  const q = (n: string) => `"${n}"`;
  const set = columns.filter((c) => !key.includes(c)).map((c) => `${q(c)} = EXCLUDED.${q(c)}`);
  return `ON CONFLICT (${key.map(q).join(', ')}) DO UPDATE SET ${set.join(', ')}`;
};

/**
 * Rows in the text format of PostgreSQL's COPY: tab between values, a newline after each row,
 * `\N` for NULL, backslash, tab, newline and carriage return escaped.
 */
export function copyText(rows: unknown[][]): string {
  // The mirror's values: text, numbers and BigInt ids.
  const value = (v: unknown) => {
    if (v === null || v === undefined) return '\\N';
    const text = typeof v === 'string' ? v : (v as number | bigint).toString();
    return text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]);
  };
  return rows.map((row) => `${row.map(value).join('\t')}\n`).join('');
}
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export const POSTGRES: Dialect = {
  name: 'postgres',
  quote: (n) => `"${n}"`,
  // "C": text compared byte by byte, as SQLite does (a locale's collation ignores '-' and 'T').
  types: { id: 'BIGINT', int: 'INTEGER', text: 'TEXT COLLATE "C"', keyText: 'TEXT COLLATE "C"' },
  tableOptions: '',
  upsert: (table, columns, key, rows) =>
    `INSERT ${insert(POSTGRES.quote, table, columns, rows)} ${onConflictUpdate(columns, key)}`,
  dayRange: substrDay,
  dayIndex: (table, day) => ({
    statement: `CREATE INDEX ${table}_shop_day ON ${table} (shop_code, substr(${day}, 1, 10), id)`,
  }),
  transactionalDdl: true,
  maxParameters: 65_535,
  columnsSql:
    'SELECT column_name AS name FROM information_schema.columns ' +
    'WHERE table_schema = current_schema() AND table_name = ?',
};

export const MYSQL: Dialect = {
  name: 'mysql',
  quote: (n) => `\`${n}\``,
  // Indexed text needs a length; the rest is TEXT. Binary collation: compared byte by byte.
  types: { id: 'BIGINT', int: 'INTEGER', text: 'TEXT', keyText: 'VARCHAR(255)' },
  tableOptions: ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
  upsert: (table, columns, key, rows) =>
    `INSERT ${insert(MYSQL.quote, table, columns, rows)} ON DUPLICATE KEY UPDATE ${columns
      .filter((c) => !key.includes(c))
      .map((c) => `${MYSQL.quote(c)} = VALUES(${MYSQL.quote(c)})`)
      .join(', ')}`,
  // MariaDB has no index on an expression: the same days as a range of the ISO text.
  dayRange: (column) => `${column} >= ? AND ${column} < ?`,
  dayIndex: (table, day) => ({ inline: `INDEX ${table}_shop_day (shop_code, ${day}, id)` }),
  transactionalDdl: false,
  maxParameters: 60_000,
  columnsSql:
    'SELECT column_name AS name FROM information_schema.columns ' +
    'WHERE table_schema = DATABASE() AND table_name = ?',
};

/** Runs work one at a time, in the order given: one connection, one statement or transaction. */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const done = this.tail.then(work);
    this.tail = done.catch(() => undefined);
    return done;
  }
}

/** A URL's text without its password (userinfo, or a query parameter such as ?password=), for messages. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass(word|phrase)/i.test(key)) parsed.searchParams.set(key, '***');
    }
    return parsed.toString();
  } catch {
    return url
      .replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@')
      .replace(/(pass(?:word|phrase)[^=&]*=)[^&]*/gi, '$1***');
  }
}

/** The kind of target `into` names: a URL of PostgreSQL or MySQL/MariaDB, else a SQLite file. */
export function dialectOf(into: string): DialectName {
  if (/^postgres(ql)?:\/\//i.test(into)) return 'postgres';
  if (/^(mysql|mariadb):\/\//i.test(into)) return 'mysql';
  return 'sqlite';
}
