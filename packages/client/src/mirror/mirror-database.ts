import { MirrorFileError } from './mirror-error.js';
import { NEWEST_DIGEST_VERSION } from './digest-versions.js';
import { MirrorRows } from './mirror-rows.js';
import { SCHEMA_VERSION, schemaStatements, stateDdl, tablesOf } from './schema.js';
import { addMissingColumns, lacksColumns, moveFromExtra } from './upgrade.js';
import { openMysql, openPostgres } from './sql-stores.js';
import { type DatabaseConstructor, loadSqliteDriver } from './sqlite-driver.js';
import { openSqlite } from './sqlite-store.js';
import { dialectOf, type MirrorStore, type SqlRunner } from './store.js';

/** Written in `mirror_state` under `format`: what tells a mirror from any other database. */
const FORMAT = 'pos-read-mirror';

/** What a mirror is for: checked on every open, so one file or database never mixes two copies. */
export interface MirrorIdentity {
  baseUrl: string;
  /** The shops mirrored, sorted, comma-separated, or `*` for every shop of the token. */
  shops: string;
}

export interface OpenOptions {
  /** verify: the mirror must exist, and nothing is written. */
  readOnly: boolean;
  warn: (message: string) => void;
  /** better-sqlite3's Database class, if the caller loaded it. */
  sqlite?: DatabaseConstructor;
}

/** Where a mirror was found on open. */
type Found =
  | { kind: 'new' }
  /** Its creation stopped before the schema version was written (MySQL commits DDL itself). */
  | { kind: 'unfinished'; state: Map<string, string> }
  | { kind: 'mirror'; state: Map<string, string>; version: number };

async function stateOf(runner: SqlRunner, quote: (n: string) => string) {
  const rows = await runner.all(
    `SELECT ${quote('key')} AS k, ${quote('value')} AS v FROM mirror_state`,
  );
  return new Map(rows.map((row) => [String(row.k), String(row.v)]));
}

/**
 * A mirror's file or database (SQLite, PostgreSQL, MySQL/MariaDB: `into` says which), opened and
 * checked before anything is written to it: another program's tables, a newer mirror's or
 * another copy's are refused and left as they were; a new one is created on `prepare`.
 */
export class MirrorDatabase {
  readonly rows: MirrorRows;

  private constructor(
    readonly store: MirrorStore,
    private readonly found: Found,
    private readonly readOnly: boolean,
  ) {
    this.rows = new MirrorRows(store);
  }

  static async open(into: string, o: OpenOptions): Promise<MirrorDatabase> {
    const kind = dialectOf(into);
    const store =
      kind === 'postgres'
        ? await openPostgres(into, o.readOnly)
        : kind === 'mysql'
          ? await openMysql(into, o.readOnly)
          : openSqlite(o.sqlite ?? (await loadSqliteDriver()), into, o.readOnly, o.warn);
    try {
      const found = await MirrorDatabase.inspect(store);
      if (o.readOnly && found.kind !== 'mirror') {
        throw new MirrorFileError(
          `${store.where} holds no mirror (${found.kind === 'new' ? 'empty' : 'its creation did not finish'}): ` +
            'run `pos-read mirror` into it first.',
        );
      }
      return new MirrorDatabase(store, found, o.readOnly);
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  private static async inspect(store: MirrorStore): Promise<Found> {
    const where = store.where;
    const tables = await store.tables();
    if (tables.length === 0) return { kind: 'new' };
    const state = tables.includes('mirror_state')
      ? await stateOf(store, store.dialect.quote)
      : new Map<string, string>();
    // Only an empty mirror_state: a creation stopped before its first row, so nothing else is there.
    if (tables.length === 1 && tables[0] === 'mirror_state' && state.size === 0) {
      return { kind: 'new' };
    }
    if (state.get('format') !== FORMAT) {
      throw new MirrorFileError(
        `${where} is not a pos-read mirror (it holds the tables ${tables.join(', ')}); ` +
          `nothing was written to it. Give a new ${store.dialect.name === 'sqlite' ? 'file' : 'database'}.`,
      );
    }
    if (!state.has('schema_version')) return { kind: 'unfinished', state };
    const version = Number(state.get('schema_version'));
    if (version > SCHEMA_VERSION) {
      throw new MirrorFileError(
        `${where} was written by a newer pos-read (mirror version ${version}; this one knows ` +
          `${SCHEMA_VERSION}); nothing was written to it. Upgrade @pos-read-api/client.`,
      );
    }
    const missing = tablesOf(version).filter((t) => !tables.includes(t));
    if (missing.length > 0 || !Number.isInteger(version) || version < 1) {
      const what = missing.length > 0 ? `no ${missing.join(', ')}` : 'no schema_version';
      throw new MirrorFileError(`${where} is a damaged mirror (${what}).`);
    }
    return { kind: 'mirror', state, version };
  }

  /** The shops it mirrors as recorded (`*`: every shop of the token), undefined when new. */
  get recordedShops(): string | undefined {
    return this.found.kind === 'new' ? undefined : this.found.state.get('shops');
  }

  /**
   * The digest version it was built on (docs/sync.md, "Digest versions"): the one recorded, else
   * 1 (a mirror made before versions existed); a new one the newest.
   */
  get digestVersion(): number {
    if (this.found.kind === 'new') return this.chosenDigestVersion ?? NEWEST_DIGEST_VERSION;
    return this.chosenDigestVersion ?? Number(this.found.state.get('digest_version') ?? '1');
  }

  private chosenDigestVersion: number | undefined;

  /**
   * Moves the mirror to the newest digest version, on purpose: recorded now; the days whose
   * records lack the new fields then differ once and are re-read by the repair that follows.
   */
  async useNewestDigests(): Promise<void> {
    this.chosenDigestVersion = NEWEST_DIGEST_VERSION;
    if (this.readOnly || this.found.kind === 'new') return;
    await this.store.transaction((tx) => this.setDigestVersion(tx));
  }

  private setDigestVersion(tx: SqlRunner): Promise<void> {
    return tx.run(this.store.dialect.upsert('mirror_state', ['key', 'value'], ['key'], 1), [
      'digest_version',
      String(this.digestVersion),
    ]);
  }

  /** The base URL it mirrors, undefined when new. */
  get recordedBaseUrl(): string | undefined {
    return this.found.kind === 'new' ? undefined : this.found.state.get('baseUrl');
  }

  /**
   * Made ready for `identity`: created when new (or its creation finished), upgraded when of an
   * older schema; refused when it is another service's or other shops' copy.
   */
  async prepare(identity: MirrorIdentity): Promise<void> {
    const found = this.found;
    if (found.kind !== 'new') this.checkIdentity(found.state, identity);
    if (this.readOnly) return;
    await this.store.beforeWrites?.();
    if (found.kind === 'new') await this.create(identity);
    else if (found.kind === 'unfinished') await this.finishCreation();
    else if (
      found.version < SCHEMA_VERSION ||
      (await lacksColumns(this.store, this.store.dialect))
    ) {
      await this.upgrade();
    }
  }

  private checkIdentity(state: Map<string, string>, identity: MirrorIdentity): void {
    for (const key of ['baseUrl', 'shops'] as const) {
      if (state.get(key) !== identity[key]) {
        throw new MirrorFileError(
          `${this.store.where} mirrors ${key === 'shops' ? 'the shops ' : ''}${state.get(key)}, ` +
            `not ${identity[key]}; nothing was written to it. Use another ` +
            `${this.store.dialect.name === 'sqlite' ? 'file' : 'database'} for another copy.`,
        );
      }
    }
  }

  /**
   * The tables and the state, in one transaction where DDL is transactional (SQLite,
   * PostgreSQL). MySQL commits each CREATE on its own: the state table and its identity come
   * first, the schema version last, so a creation killed half-way is recognised as this copy's
   * and finished by the next run (`unfinished`).
   */
  private async create(identity: MirrorIdentity): Promise<void> {
    const d = this.store.dialect;
    const identityRows = async (tx: SqlRunner) => {
      const insert = `INSERT INTO mirror_state (${d.quote('key')}, ${d.quote('value')}) VALUES (?, ?)`;
      await tx.run(insert, ['format', FORMAT]);
      await tx.run(insert, ['baseUrl', identity.baseUrl]);
      await tx.run(insert, ['shops', identity.shops]);
      await tx.run(insert, ['created', new Date().toISOString()]);
      await tx.run(insert, ['digest_version', String(this.digestVersion)]);
    };
    if (d.transactionalDdl) {
      await this.store.transaction(async (tx) => {
        await tx.run(stateDdl(d));
        for (const statement of schemaStatements(d)) await tx.run(statement);
        await identityRows(tx);
        await this.setVersion(tx);
      });
      return;
    }
    await this.store.run(stateDdl(d));
    await this.store.transaction(identityRows);
    await this.finishCreation();
  }

  private async finishCreation(): Promise<void> {
    for (const statement of schemaStatements(this.store.dialect)) await this.store.run(statement);
    await this.store.transaction((tx) => this.setVersion(tx));
  }

  private setVersion(tx: SqlRunner): Promise<void> {
    const d = this.store.dialect;
    return tx.run(d.upsert('mirror_state', ['key', 'value'], ['key'], 1), [
      'schema_version',
      String(SCHEMA_VERSION),
    ]);
  }

  /**
   * A mirror of an older schema, or one lacking a column a field the API gained since has (a
   * client generated before it made it), brought to this one before anything else is written: the columns
   * and tables it lacks added (an added column takes NULL: the rows of before may lack it), and
   * the fields a version 2 row kept in `extra` moved into their new columns, so nothing is
   * re-read for them; a version 1 row kept none, so its new columns stay NULL until its day is
   * re-read (docs/sync.md, "From the till to your database"). One transaction on SQLite and
   * PostgreSQL; MySQL commits each ALTER and CREATE on its own, so there the columns and tables
   * come first and the rows and the version in one transaction after: a run killed half-way
   * leaves version 2 with some columns added, and the next one adds only those still missing.
   */
  private async upgrade(): Promise<void> {
    const d = this.store.dialect;
    type Existing = Awaited<ReturnType<typeof addMissingColumns>>;
    const fill = async (tx: SqlRunner, existing: Existing) => {
      for (const table of existing) await moveFromExtra(tx, table);
      await this.setVersion(tx);
    };
    if (d.transactionalDdl) {
      await this.store.transaction(async (tx) => {
        const existing = await addMissingColumns(tx, d);
        for (const statement of schemaStatements(d)) await tx.run(statement);
        await fill(tx, existing);
      });
      return;
    }
    const existing = await addMissingColumns(this.store, d);
    for (const statement of schemaStatements(d)) await this.store.run(statement);
    await this.store.transaction((tx) => fill(tx, existing));
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
