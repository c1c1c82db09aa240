import { chmodSync, closeSync, lstatSync, openSync, statSync } from 'node:fs';
import { MirrorRows } from './mirror-rows.js';
import { EXTRA, SCHEMA_VERSION, schemaDdl, TABLE_NAMES } from './schema.js';
import type { Database, DatabaseConstructor } from './sqlite-driver.js';

/** Written in `mirror_state` under `format`: what tells a mirror from any other SQLite file. */
const FORMAT = 'pos-read-mirror';

/** The file cannot be used as a mirror; nothing in it was changed. */
export class MirrorFileError extends Error {
  override name = 'MirrorFileError';
}

/** What a mirror file is for: checked on every open, so one file never mixes two copies. */
export interface MirrorIdentity {
  baseUrl: string;
  /** The shops mirrored, sorted, or `*` for every shop of the token. */
  shops: string;
}

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

function tablesOf(db: Database, file: string): string[] {
  try {
    return db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
  } catch (error) {
    if (/SQLITE_(NOTADB|CORRUPT)/.test(sqliteCode(error))) {
      throw new MirrorFileError(`${file} is not a SQLite database; nothing was written to it.`);
    }
    throw error;
  }
}

/**
 * The SQLite file of a mirror: opened, checked (another program's database, a newer mirror's
 * file or another copy's are refused before anything is written), created when new or empty.
 */
export class MirrorFile {
  readonly rows: MirrorRows;

  private constructor(
    private readonly db: Database,
    readonly file: string,
  ) {
    this.rows = new MirrorRows(db);
  }

  /**
   * `readOnly` (verify): the file must be a mirror already, and is never written. A new file is
   * created 0600; an empty one it did not create is refused unless it is the user's and private;
   * `warn` is told when an existing mirror is open to other users.
   */
  static open(
    Driver: DatabaseConstructor,
    file: string,
    identity: MirrorIdentity,
    readOnly = false,
    warn: (message: string) => void = () => undefined,
  ): MirrorFile {
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
    let db: Database;
    try {
      db = new Driver(file, { fileMustExist: existing, readonly: readOnly });
    } catch (error) {
      throw new MirrorFileError(`${file} cannot be opened: ${(error as Error).message}.`);
    }
    try {
      const tables = existing ? tablesOf(db, file) : [];
      const version =
        tables.length > 0 || readOnly ? MirrorFile.check(db, file, tables, identity) : 0;
      if (readOnly) return new MirrorFile(db, file);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      if (tables.length === 0) MirrorFile.create(db, identity);
      else if (version < SCHEMA_VERSION) MirrorFile.upgrade(db);
      return new MirrorFile(db, file);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The file's schema version, once it is known to be a mirror of this copy. */
  private static check(
    db: Database,
    file: string,
    tables: string[],
    identity: MirrorIdentity,
  ): number {
    const state = tables.includes('mirror_state') ? stateOf(db) : new Map<string, string>();
    if (state.get('format') !== FORMAT) {
      throw new MirrorFileError(
        `${file} is not a pos-read mirror (it holds the tables ${tables.join(', ')}); ` +
          'nothing was written to it. Give a new file.',
      );
    }
    const version = Number(state.get('schema_version'));
    if (version > SCHEMA_VERSION) {
      throw new MirrorFileError(
        `${file} was written by a newer pos-read (mirror version ${version}; this one knows ` +
          `${SCHEMA_VERSION}); nothing was written to it. Upgrade @pos-read-api/client.`,
      );
    }
    const missing = TABLE_NAMES.filter((t) => !tables.includes(t));
    if (missing.length > 0 || !Number.isInteger(version) || version < 1) {
      const what = missing.length > 0 ? `no ${missing.join(', ')}` : 'no schema_version';
      throw new MirrorFileError(`${file} is a damaged mirror (${what}).`);
    }
    for (const key of ['baseUrl', 'shops'] as const) {
      if (state.get(key) !== identity[key]) {
        throw new MirrorFileError(
          `${file} mirrors ${key === 'shops' ? 'the shops' : ''} ${state.get(key)}, not ` +
            `${identity[key]}; nothing was written to it. Use another file for another copy.`,
        );
      }
    }
    return version;
  }

  private static create(db: Database, identity: MirrorIdentity) {
    db.transaction(() => {
      db.exec(schemaDdl());
      const insert = db.prepare('INSERT INTO mirror_state (key, value) VALUES (?, ?)');
      insert.run('format', FORMAT);
      insert.run('schema_version', String(SCHEMA_VERSION));
      insert.run('baseUrl', identity.baseUrl);
      insert.run('shops', identity.shops);
      insert.run('created', new Date().toISOString());
    })();
  }

  /**
   * A file of an older schema brought to this one, in one transaction, before anything else is
   * written. Version 1 to 2: each table gets its `extra` column, NULL in every row (a version 1
   * row holds no field beyond its columns); a day whose server records carry a field the file
   * never kept differs once and is re-read (decision 24.8).
   */
  private static upgrade(db: Database) {
    db.transaction(() => {
      for (const table of TABLE_NAMES) db.exec(`ALTER TABLE ${table} ADD COLUMN ${EXTRA} TEXT`);
      db.prepare("UPDATE mirror_state SET value = ? WHERE key = 'schema_version'").run(
        String(SCHEMA_VERSION),
      );
    })();
  }

  state(key: string): string | undefined {
    return stateOf(this.db).get(key);
  }

  close(): void {
    this.db.close();
  }
}

function stateOf(db: Database): Map<string, string> {
  const rows = db.prepare('SELECT key, value FROM mirror_state').all() as Array<{
    key: string;
    value: string;
  }>;
  return new Map(rows.map((r) => [r.key, r.value]));
}
