import { chmodSync, closeSync, lstatSync, openSync, statSync } from 'node:fs';
import { MirrorFileError } from './mirror-error.js';
import type { Database, DatabaseConstructor, Statement } from './sqlite-driver.js';
import { type MirrorStore, type Row, Serial, SQLITE, type SqlRunner } from './store.js';

const sqliteCode = (error: unknown) => (error as { code?: string }).code ?? '';

/** The mode of a file the mirror creates: its owner's only (it holds the shops' business data). */
const MIRROR_FILE_MODE = 0o600;

/**
 * Creates the file empty, 0600 whatever the umask, before SQLite opens it: SQLite would create
 * it 0644 (less the umask), and gives its -wal and -shm files the mode of the database file.
 * Exclusive, so a file that appeared meanwhile is not taken over. False when it already exists.
 */
function createPrivate(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', MIRROR_FILE_MODE);
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return false;
    throw new MirrorFileError(`${file} cannot be created: ${(error as Error).message}.`);
  }
  closeSync(fd);
  chmodSync(file, MIRROR_FILE_MODE);
  return true;
}

/**
 * An existing file others may read or write: said, and left as it is (packages/client/README.md,
 * "The file"; docs/decisions.md 25.3). Its owner may have opened it to a BI tool on purpose.
 */
function widerThanPrivate(file: string): string | undefined {
  if (process.platform === 'win32') return undefined; // no POSIX modes to check
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  const octal = mode.toString(8).padStart(4, '0');
  return (
    `${file} is open to other users of this machine (mode ${octal}), and holds your shops' ` +
    `sales: run \`chmod 600 ${file}\` unless you shared it on purpose. pos-read leaves its ` +
    'mode as it is.'
  );
}

/**
 * An empty file the mirror did not create is filled only when it is a regular file of this user
 * with no permission for anyone else (issue 44): anything else could be a file someone made for
 * it to read the shops' data from, or a link to elsewhere. Refused with the reason otherwise.
 */
function refuseForeignEmptyFile(file: string): void {
  if (process.platform === 'win32') return; // no POSIX owners and modes to check
  const stat = lstatSync(file);
  const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
  const reasons = !stat.isFile()
    ? ['it is not a regular file (a symbolic link, a device or a pipe)']
    : [
        ...(stat.uid === process.getuid?.()
          ? []
          : [`it belongs to another user (uid ${stat.uid})`]),
        ...((stat.mode & 0o077) === 0 ? [] : [`others may read or write it (mode ${mode})`]),
      ];
  if (reasons.length === 0) return;
  throw new MirrorFileError(
    `${file} is an empty file pos-read did not create, and ${reasons.join(' and ')}; it would ` +
      "hold your shops' sales, so nothing was written to it. Give a new path, or remove the " +
      'file, or make it yours with mode 0600.',
  );
}

/** A SQLite file: better-sqlite3 is synchronous, so a transaction holds the connection alone. */
class SqliteStore implements MirrorStore {
  readonly dialect = SQLITE;
  private readonly serial = new Serial();
  private readonly statements = new Map<string, Statement>();
  private readonly direct: SqlRunner;

  constructor(
    private readonly db: Database,
    readonly where: string,
    private readonly readOnly: boolean,
  ) {
    this.direct = {
      // The values as one array (anonymous parameters): a multi-row statement binds thousands.
      all: (sql, parameters = []) => Promise.resolve(this.statement(sql).all(parameters) as Row[]),
      run: (sql, parameters = []) => {
        this.statement(sql).run(parameters);
        return Promise.resolve();
      },
    };
  }

  /** Prepared once per text; every INTEGER read as a BigInt (ids beyond 2^53). */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (statement.reader) statement.safeIntegers(true);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all(sql: string, parameters?: unknown[]): Promise<Row[]> {
    return this.serial.run(() => this.direct.all(sql, parameters));
  }

  run(sql: string, parameters?: unknown[]): Promise<void> {
    return this.serial.run(() => this.direct.run(sql, parameters));
  }

  async tables(): Promise<string[]> {
    try {
      const rows = await this.all(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
      );
      return rows.map((row) => String(row.name));
    } catch (error) {
      if (/SQLITE_(NOTADB|CORRUPT)/.test(sqliteCode(error))) {
        throw new MirrorFileError(
          `${this.where} is not a SQLite database; nothing was written to it.`,
        );
      }
      throw error;
    }
  }

  /** WAL (a BI tool may read while the mirror writes): set once the file is known to be a mirror. */
  beforeWrites(): Promise<void> {
    if (!this.readOnly) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
    }
    return Promise.resolve();
  }

  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.serial.run(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(this.direct);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  close(): Promise<void> {
    return this.serial.run(() => Promise.resolve(this.db.close()));
  }
}

/**
 * The SQLite file of a mirror, opened: created 0600 when new; an empty one it did not create is
 * refused unless it is the user's and private; `warn` is told when an existing one is open to
 * other users. `readOnly` (verify): the file must be there, and is never written.
 */
export function openSqlite(
  Driver: DatabaseConstructor,
  file: string,
  readOnly: boolean,
  warn: (message: string) => void,
): MirrorStore {
  const existing = (() => {
    try {
      return statSync(file).size > 0;
    } catch {
      return false;
    }
  })();
  if (readOnly && !existing) throw new MirrorFileError(`${file} is not there (or empty).`);
  const created = !readOnly && createPrivate(file);
  if (!created && !existing) refuseForeignEmptyFile(file);
  else if (!created) {
    const wide = widerThanPrivate(file);
    if (wide !== undefined) warn(wide);
  }
  try {
    return new SqliteStore(
      new Driver(file, { fileMustExist: existing, readonly: readOnly }),
      file,
      readOnly,
    );
  } catch (error) {
    throw new MirrorFileError(`${file} cannot be opened: ${(error as Error).message}.`);
  }
}
