import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MirrorFileError } from './mirror-error.js';
import { loadOptional } from './sqlite-driver.js';
import { mysqlUri } from './transport-security.js';
import {
  type Dialect,
  type MirrorStore,
  MYSQL,
  POSTGRES,
  type Row,
  Serial,
  type SqlRunner,
  withoutPassword,
} from './store.js';

/** BigInt ids go to the server as decimal text (pg and mysql2 take no BigInt parameter). */
const plain = (parameters: unknown[] = []) =>
  parameters.map((p) => (typeof p === 'bigint' ? p.toString() : p));

/** The part of node-postgres (`pg`) the mirror uses; the package ships no types of its own. */
interface PgClient {
  connect(): Promise<unknown>;
  query(config: { text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
  /** A submittable (pg-copy-streams' COPY FROM STDIN): the stream to write. */
  query<S>(submittable: S): S;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
type PgModule = { Client: new (options: { connectionString: string }) => PgClient };
/** pg-copy-streams, optional: COPY FROM STDIN, the PostgreSQL mirror's bulk load. */
type CopyStreams = { from(sql: string): NodeJS.WritableStream };

/** The part of mysql2/promise the mirror uses. */
interface MysqlConnection {
  query(sql: string, values: unknown[]): Promise<[unknown, unknown]>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
type MysqlModule = { createConnection(options: Record<string, unknown>): Promise<MysqlConnection> };

/**
 * One connection, one statement or transaction at a time (Serial): a follow's feeds and its
 * reconciliation share it, and a transaction's statements never interleave with another's.
 */
class ServerStore implements MirrorStore {
  private readonly serial = new Serial();
  private readonly direct: SqlRunner;

  constructor(
    readonly dialect: Dialect,
    readonly where: string,
    private readonly execute: (sql: string, parameters: unknown[]) => Promise<Row[]>,
    private readonly tablesSql: string,
    private readonly end: () => Promise<void>,
    copy?: (sql: string, text: string) => Promise<void>,
  ) {
    this.direct = {
      all: (sql, parameters) => this.execute(sql, plain(parameters)),
      run: async (sql, parameters) => void (await this.execute(sql, plain(parameters))),
      ...(copy ? { copy } : {}),
    };
  }

  all(sql: string, parameters?: unknown[]): Promise<Row[]> {
    return this.serial.run(() => this.direct.all(sql, parameters));
  }

  run(sql: string, parameters?: unknown[]): Promise<void> {
    return this.serial.run(() => this.direct.run(sql, parameters));
  }

  async tables(): Promise<string[]> {
    return (await this.all(this.tablesSql)).map((row) => String(row.name));
  }

  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.serial.run(async () => {
      await this.execute('BEGIN', []);
      try {
        const result = await work(this.direct);
        await this.execute('COMMIT', []);
        return result;
      } catch (error) {
        await this.execute('ROLLBACK', []).catch(() => undefined);
        throw error;
      }
    });
  }

  close(): Promise<void> {
    return this.serial.run(() => this.end());
  }
}

const missingDriver = (name: string, kind: string) =>
  new MirrorFileError(
    `the mirror writes ${kind} with the package ${name}, an optional dependency that is not ` +
      `installed: run \`npm install ${name}\` beside @pos-read-api/client.`,
  );

const unreachable = (where: string, error: unknown) =>
  new MirrorFileError(`cannot connect to ${where}: ${(error as Error).message}.`);

/** `?` placeholders as PostgreSQL's `$1, $2, …` (the mirror's SQL has no `?` in a literal). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** A PostgreSQL database (`postgres://user@host:5432/db`), its current schema (`public`). */
export async function openPostgres(url: string, readOnly: boolean): Promise<MirrorStore> {
  const where = withoutPassword(url);
  const pg = await loadOptional<PgModule>('pg');
  if (!pg?.Client) throw missingDriver('pg', 'PostgreSQL');
  const client = new pg.Client({ connectionString: url });
  // A connection lost between statements: the next statement fails with it.
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (readOnly) {
      await client.query({
        text: 'SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY',
        values: [],
      });
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw unreachable(where, error);
  }
  // Without pg-copy-streams a bulk load goes by multi-row INSERTs: slower, the same rows.
  const copyStreams = await loadOptional<CopyStreams>('pg-copy-streams');
  const copy = copyStreams?.from
    ? (sql: string, text: string) =>
        pipeline(Readable.from([text]), client.query(copyStreams.from(sql)))
    : undefined;
  return new ServerStore(
    POSTGRES,
    where,
    async (sql, values) => (await client.query({ text: numbered(sql), values })).rows,
    'SELECT table_name AS name FROM information_schema.tables ' +
      'WHERE table_schema = current_schema() ORDER BY 1',
    () => client.end(),
    copy,
  );
}

/** A MySQL or MariaDB database (`mysql://user@host:3306/db`; `mariadb://` is the same). */
export async function openMysql(url: string, readOnly: boolean): Promise<MirrorStore> {
  const where = withoutPassword(url);
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!database) {
    throw new MirrorFileError(`${where} names no database: mysql://user@host:3306/DATABASE.`);
  }
  const mysql = await loadOptional<MysqlModule>('mysql2/promise');
  if (!mysql?.createConnection) throw missingDriver('mysql2', 'MySQL and MariaDB');
  let connection: MysqlConnection;
  try {
    connection = await mysql.createConnection({
      uri: mysqlUri(url),
      // Ids beyond 2^53 as decimal text, date-times never converted.
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
      charset: 'utf8mb4',
    });
    connection.on('error', () => undefined);
    if (readOnly) await connection.query('SET SESSION TRANSACTION READ ONLY', []);
  } catch (error) {
    throw unreachable(where, error);
  }
  return new ServerStore(
    MYSQL,
    where,
    async (sql, values) => {
      const [rows] = await connection.query(sql, values);
      return Array.isArray(rows) ? (rows as Row[]) : [];
    },
    'SELECT table_name AS name FROM information_schema.tables ' +
      'WHERE table_schema = DATABASE() ORDER BY 1',
    () => connection.end(),
  );
}
