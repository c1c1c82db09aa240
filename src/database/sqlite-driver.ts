/**
 * The better-sqlite3 release for the running Node (docs/decisions.md, 60).
 *
 * better-sqlite3 13 is built on Node-API 10 (Node 22.14 and later). 12.x, built on Node's
 * `ObjectWrap`, aborts the process on Node 24.19 and later when the garbage collector frees a
 * statement (`RemoveEnvironmentCleanupHook … (env) != nullptr`). 13 segfaults on Node 20, which
 * has only Node-API 9 and is past its end of life, so Node 20 keeps 12.x (the optional dependency
 * `better-sqlite3-node20`) until the development machines move on.
 */
const SQLITE_NODE_API_REQUIRED = 10;

export function sqliteDriverPackage(
  nodeApiVersion: string | undefined,
): 'better-sqlite3' | 'better-sqlite3-node20' {
  return Number(nodeApiVersion ?? 0) >= SQLITE_NODE_API_REQUIRED
    ? 'better-sqlite3'
    : 'better-sqlite3-node20';
}

/** The module TypeORM's better-sqlite3 driver is given (its `driver` option). */
export function loadSqliteDriver(): unknown {
  const name = sqliteDriverPackage(process.versions.napi);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name) as unknown;
  } catch (error) {
    if (name === 'better-sqlite3-node20') {
      throw new Error(
        `Node ${process.version} is past its end of life and needs the optional dependency ` +
          'better-sqlite3-node20, which is not installed: run `npm ci` with optional dependencies, ' +
          'or use Node 22, 24 or 26.',
        { cause: error },
      );
    }
    throw error;
  }
}
