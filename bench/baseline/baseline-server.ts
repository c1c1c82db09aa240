import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Pool } from 'mysql2';
import type { ModeQuery } from '../../src/sync/paging/mode';
import type { PagedEndpoint } from '../../src/sync/paging/paged-endpoint';
import { Paginator } from '../../src/sync/paging/paginator';
import { Wall } from '../../src/wall/wall';
import { CATALOGUE } from '../../src/app.catalogue';
import type { CallerClaims } from '../../src/common/caller-claims';
import { ProblemException } from '../../src/common/errors/problem';
import type { CursorCodec } from '../../src/sync/paging/cursor-codec';
import type { RawQuery } from '../../src/common/query/query-parameters';
import type { Row, SqlReader } from '../../src/database/sql-reader';
import { resourceEndpoints } from '../../src/sync/resource-controller';
import { callerOf, type JwtSettings } from './baseline-auth';
import { type StatementTiming, withPrimaryOf } from './baseline-feed';

type Reading = (pages: Paginator, caller: CallerClaims, raw: RawQuery) => Promise<unknown>;

/** How the baseline reads one endpoint: the service's own Paginator over its declaration. */
function reading<Q extends ModeQuery, R extends { id: string }, T>(
  endpoint: PagedEndpoint<Q, object, object, R, T>,
): [string, Reading] {
  return [endpoint.path, (pages, caller, raw) => pages.read(endpoint, caller, raw)];
}

/** Every resource's list and feed, by path: the service's own declarations. */
const ENDPOINTS = new Map<string, Reading>(
  CATALOGUE.flatMap((resource) => {
    const { list, feed } = resourceEndpoints(resource);
    return feed ? [reading(list), reading(feed)] : [reading(list)];
  }),
);

/** The service's CPU time as process.cpuUsage() counts it, for the benchmark's CPU per page. */
export const CPU_USAGE_PATH = '/cpu-usage';

export interface BaselineDeps {
  pool: Pool;
  jwt: JwtSettings;
  cursors: CursorCodec;
}

/** mysql2's text protocol with client-side placeholders, as TypeORM's DataSource.query uses it. */
function readerOf(pool: Pool): SqlReader {
  return {
    query: (sql, params) =>
      new Promise<Row[]>((resolve, reject) => {
        pool.query(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as Row[])));
      }),
  };
}

function rawQueryOf(search: URLSearchParams): RawQuery {
  const raw: RawQuery = {};
  for (const [name, value] of search) {
    const seen = raw[name];
    raw[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return raw;
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...extra,
  });
  res.end(body);
}

/**
 * Asked by the walk's floor (bench/prefetch-walk.ts): `Server-Timing: db;dur=<ms of SQL>;desc="<n>
 * statements"`, every statement the page ran (a sales page: its keyset read and its lines).
 */
export const DB_TIME_HEADER = 'x-bench-db-time';

/** The reader, timing its statements into `timing` (wall time from send to rows parsed). */
function timed(reader: SqlReader, timing: StatementTiming): SqlReader {
  return {
    query: async (sql, params) => {
      const started = performance.now();
      try {
        return await reader.query(sql, params);
      } finally {
        timing.ms += performance.now() - started;
        timing.statements++;
      }
    },
  };
}

/**
 * The least a server can do to answer the three cursor endpoints as the service does: check the
 * same token, then read the page with the service's own Paginator through its own
 * Wall (same query parsing, shop scope, SQL, mapping and cursor) over a bare mysql2
 * pool, and JSON.stringify it. No framework, no ORM, no logging.
 */
export function createBaselineServer(deps: BaselineDeps): Server {
  const reader = readerOf(deps.pool);
  const pages = new Paginator(
    deps.cursors,
    new Wall({ reader: () => reader, withPrimary: withPrimaryOf(deps.pool) }),
  );

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://baseline');
    if (url.pathname === CPU_USAGE_PATH) return send(res, 200, JSON.stringify(process.cpuUsage()));
    const read = ENDPOINTS.get(url.pathname);
    if (req.method !== 'GET' || !read) return send(res, 404, '{"status":404}');
    const caller = callerOf(req.headers.authorization, deps.jwt);
    if (!caller) return send(res, 401, '{"status":401}');
    if (!caller.roles.includes('ApiUser')) return send(res, 403, '{"status":403}');
    const timing: StatementTiming = { ms: 0, statements: 0 };
    const timedPages = req.headers[DB_TIME_HEADER]
      ? new Paginator(
          deps.cursors,
          new Wall({
            reader: () => timed(reader, timing),
            withPrimary: withPrimaryOf(deps.pool, timing),
          }),
        )
      : pages;
    const page = await read(timedPages, caller, rawQueryOf(url.searchParams));
    const serverTiming = req.headers[DB_TIME_HEADER]
      ? `db;dur=${timing.ms.toFixed(3)};desc="${timing.statements} statements"`
      : undefined;
    send(res, 200, JSON.stringify(page), serverTiming ? { 'server-timing': serverTiming } : {});
  }

  return createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      if (error instanceof ProblemException) {
        return send(res, error.getStatus(), JSON.stringify(error.getResponse()));
      }
      console.error(error);
      send(res, 500, '{"status":500}');
    });
  });
}
