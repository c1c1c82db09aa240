import { readFileSync } from 'node:fs';

/** The part of better-sqlite3's API the mirror uses (it ships no types of its own). */
export interface Statement {
  run(...parameters: unknown[]): { changes: number };
  get(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  pluck(on?: boolean): Statement;
  safeIntegers(on?: boolean): Statement;
  /** True when the statement returns rows (a SELECT). */
  readonly reader: boolean;
}

export interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  readonly inTransaction: boolean;
  close(): void;
}

export type DatabaseConstructor = new (
  file: string,
  options?: { readonly?: boolean; fileMustExist?: boolean },
) => Database;

/** The mirror needs better-sqlite3 and it is not installed (or unusable on this Node). */
export class SqliteDriverError extends Error {
  override name = 'SqliteDriverError';
}

/** better-sqlite3 13 needs Node-API 10 (Node 22.14 and later); 12 still runs on Node 20. */
const NODE_API_OF_13 = 10;

/**
 * The package's major version, read from its package.json where Node's `require` can resolve it
 * (the CommonJS build, which the `pos-read` command runs); undefined in the ES module build.
 */
function majorVersion(name: string): number | undefined {
  if (typeof require !== 'function') return undefined;
  try {
    const file = require.resolve(`${name}/package.json`);
    return Number((JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version[0]);
  } catch {
    return undefined;
  }
}

/** A package loaded by name when it is installed, else undefined (the mirror's drivers). */
export async function loadOptional<T>(name: string): Promise<T | undefined> {
  return (await load(name)) as T | undefined;
}

async function load(name: string): Promise<DatabaseConstructor | undefined> {
  try {
    const module = (await import(name)) as { default?: DatabaseConstructor };
    return module.default ?? (module as unknown as DatabaseConstructor);
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND') return undefined;
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/**
 * better-sqlite3, loaded only when a mirror opens its file (packages/client/README.md, "Why
 * better-sqlite3"). On Node 20 (Node-API 9) version 13 crashes the process, so there the alias
 * `better-sqlite3-node20` (`npm install better-sqlite3-node20@npm:better-sqlite3@12`) is tried
 * first, and a better-sqlite3 13 is refused with a message instead of loaded.
 */
export async function loadSqliteDriver(): Promise<DatabaseConstructor> {
  const oldNode = Number(process.versions.napi ?? 0) < NODE_API_OF_13;
  const candidates = oldNode ? ['better-sqlite3-node20', 'better-sqlite3'] : ['better-sqlite3'];
  for (const name of candidates) {
    if (oldNode && name === 'better-sqlite3' && (majorVersion(name) ?? 0) >= 13) {
      throw new SqliteDriverError(
        `better-sqlite3 ${majorVersion(name)} needs Node 22.14 or later; on Node ` +
          `${process.versions.node} install better-sqlite3@12 for the mirror.`,
      );
    }
    const driver = await load(name);
    if (driver) return driver;
  }
  throw new SqliteDriverError(
    'the mirror writes SQLite with better-sqlite3, an optional dependency that is not ' +
      'installed: run `npm install better-sqlite3` beside @pos-read-api/client.',
  );
}
