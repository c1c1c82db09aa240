import { type CursorResource, cursorResourceOf, type ShopsResource } from '../resources.js';
import type { Shop } from '../types.js';
import { FeedSync, type FeedScope, type MirrorEvent } from './feeds.js';
import { follow } from './follow.js';
import { historyKey, loadHistory } from './history.js';
import { inLanes } from './lanes.js';
import type { Json } from './jcs.js';
import { UnknownShopError } from '../errors.js';
import { MirrorDatabase } from './mirror-database.js';
import type { DayKind } from './mirror-rows.js';
import { MirrorFileError } from './mirror-error.js';
import { addDays, type DifferingDay, reconcile } from './reconcile.js';
import { CASH_DRAWER_SESSIONS, TABLES } from './schema.js';
import { compareSessions, refreshSessions } from './sessions.js';
import type { DatabaseConstructor } from './sqlite-driver.js';

export interface MirrorOptions {
  /**
   * Where the copy is kept: a SQLite file (created when missing), or a PostgreSQL
   * (`postgres://user@host:5432/db`) or MySQL/MariaDB (`mysql://user@host:3306/db`) database,
   * its tables created on first use.
   */
  into: string;
  /**
   * Shop codes, compared exactly; default the shops the mirror recorded when it was created,
   * and for a new one every shop of the token (`/shops`).
   */
  shops?: string[];
  /** Days back from today (shop-local) whose digests are compared, 1..91 (default 35). */
  window?: number;
  /**
   * A period instead of the window, `YYYY-MM-DD`, `to` exclusive, any length (92 days a digest
   * request): a closed period checked (and, but with verifyOnly, repaired) again. Not with follow.
   */
  period?: { from: string; to: string };
  /** Keep going: feeds held open with `Wait`, the window reconciled every `reconcileEvery`. */
  follow?: boolean;
  /** Seconds between reconciliations when following (default 300). */
  reconcileEvery?: number;
  /** Seconds a follow's feed call may be held (`Wait`, default 20). */
  wait?: number;
  /**
   * Move the copy to the server's newest digest version (docs/sync.md, "Digest versions"), on
   * purpose: recorded in the copy, and the days whose records lack the new fields are re-read
   * once. Without it a copy verifies with the version it was built on (none recorded: 1).
   */
  newestDigests?: boolean;
  /**
   * The days compared (and re-read): `calendar-date` (default) those of the records' shop-local
   * time, as the digests' From/To; `business-date` those of their `businessDate`
   * (BusinessDateFrom/To), over the same dates.
   */
  by?: DayKind;
  /** Only compare (`pos-read verify`): nothing is read from the feeds, nothing written. */
  verifyOnly?: boolean;
  /** Records per feed page (default the service's, 500). */
  limit?: number;
  signal?: AbortSignal;
  onEvent?: (event: MirrorEvent) => void;
  /** better-sqlite3's Database class, if you load it yourself. */
  sqlite?: DatabaseConstructor;
  /** For tests: today's date is taken from this clock. */
  now?: () => number;
}

export interface MirrorSummary {
  /** Rows per table of the file at the end. */
  rows: Record<string, number>;
  /** Records written from the feeds. */
  records: number;
  /** Days compared with the server (each reconciliation's days added up). */
  daysChecked: number;
  /** Days re-read because they differed. */
  daysRepaired: number;
  /** The days that differed at the last comparison (re-read then, unless verifyOnly). */
  differing: DifferingDay[];
}

export const DEFAULT_WINDOW = 35;

/**
 * What the mirror uses of a PosReadClient: its shops, the drawer sessions' list, and the cursor
 * resource of each table a feed fills (TABLES), by its property (`cashMovements`).
 */
interface MirrorClient {
  readonly baseUrl: string;
  readonly shops: ShopsResource;
  readonly cashDrawerSessions: Pick<CursorResource<unknown>, 'list' | 'bulk'>;
}

/** Today in a shop's zone, `YYYY-MM-DD`. */
function today(timeZone: string, now: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(now);
}

/** Each code must be one of the token's shops, compared exactly (as the service does). */
function mustBeTokens(all: Shop[], codes: string[] | undefined): void {
  const unknown = (codes ?? []).filter((code) => !all.some((shop) => shop.code === code));
  if (unknown.length > 0) throw UnknownShopError.of(unknown, all);
}

const listed = (codes: string[]) => codes.join(', ');

/**
 * The shops to mirror: those given, else those recorded in the mirror (undefined: every shop of
 * the token). A list given that differs from the recorded one is refused with the difference.
 */
function wantedShops(given: string[] | undefined, recorded: string | undefined, where: string) {
  const explicit = given && given.length > 0 ? [...new Set(given)].sort() : undefined;
  if (recorded === undefined) return explicit;
  const kept = recorded === '*' ? undefined : recorded.split(',');
  if (!explicit || (kept && listed(kept) === listed(explicit))) return kept;
  const what = kept ? `the shops ${listed(kept)}` : 'every shop of the token';
  const added = explicit.filter((code) => !kept?.includes(code));
  const left = kept ? kept.filter((code) => !explicit.includes(code)) : [];
  const differs = [
    ...(kept ? [] : [`--shop ${explicit.join(' --shop ')} narrows it`]),
    ...(kept && added.length > 0 ? [`--shop adds ${listed(added)}`] : []),
    ...(left.length > 0 ? [`leaves out ${listed(left)}`] : []),
  ].join(' and ');
  throw new MirrorFileError(
    `${where} mirrors ${what} (recorded in it); ${differs}. Leave out --shop to go on with what ` +
      'it mirrors, or give another file or database for other shops; nothing was written to it.',
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const realDate = (date: string) =>
  DATE.test(date) && new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;

/** The days a digest request may cover (docs/sync.md: From and To at most 92 days apart). */
export const DIGEST_MAX_DAYS = 92;

/** [from, to) cut into periods of at most DIGEST_MAX_DAYS days. */
export function digestPeriods(from: string, to: string): Array<{ from: string; to: string }> {
  const periods: Array<{ from: string; to: string }> = [];
  for (let start = from; start < to; start = addDays(start, DIGEST_MAX_DAYS)) {
    const end = addDays(start, DIGEST_MAX_DAYS);
    periods.push({ from: start, to: end < to ? end : to });
  }
  return periods;
}

function checkOptions(o: MirrorOptions): number {
  const window = o.window ?? DEFAULT_WINDOW;
  if (!Number.isInteger(window) || window < 1 || window > 91) {
    throw new RangeError('mirror: window is a whole number of days, 1 to 91');
  }
  if (o.by !== undefined && o.by !== 'calendar-date' && o.by !== 'business-date') {
    throw new RangeError("mirror: by is 'calendar-date' or 'business-date'");
  }
  if (o.period) {
    const { from, to } = o.period;
    if (!realDate(from) || !realDate(to) || from >= to) {
      throw new RangeError('mirror: period is from and to, dates YYYY-MM-DD, from before to');
    }
    if (o.follow) throw new RangeError('mirror: a period is checked once, not followed');
  }
  return window;
}

/**
 * Keeps a copy equal to what the API returns for the shops (packages/client/README.md,
 * "Mirror"): inserts from the feeds, edits and deletes from the digests over the window.
 */
export async function mirror(client: MirrorClient, o: MirrorOptions): Promise<MirrorSummary> {
  const window = checkOptions(o);
  // Without onEvent a warning still shows: Node prints process warnings on standard error.
  const warn = (message: string) =>
    o.onEvent
      ? o.onEvent({ type: 'warning', message })
      : process.emitWarning(message, 'PosReadMirrorWarning');
  const readOnly = o.verifyOnly === true;
  // The token's shops first: a refusal (a shop it may not read, a 401) leaves no file behind.
  const all = await client.shops.list({ signal: o.signal });
  mustBeTokens(all, o.shops);
  const database = await MirrorDatabase.open(o.into, { readOnly, warn, sqlite: o.sqlite });
  try {
    const wanted = wantedShops(o.shops, database.recordedShops, database.store.where);
    // A recorded shop the token lost is refused as a --shop would be.
    mustBeTokens(all, wanted);
    const shops = wanted ? all.filter((shop) => wanted.includes(shop.code)) : all;
    await database.prepare({ baseUrl: client.baseUrl, shops: wanted ? wanted.join(',') : '*' });
    if (o.newestDigests) await database.useNewestDigests();
    return await run(client, database, shops, { ...o, window }, wanted !== undefined);
  } catch (error) {
    throw diskFull(error, o.into);
  } finally {
    await database.close();
  }
}

function diskFull(error: unknown, into: string): unknown {
  if (/SQLITE_(FULL|IOERR)/.test((error as { code?: string }).code ?? '')) {
    return new MirrorFileError(
      `cannot write ${into}: ${(error as Error).message} (disk full?). Stopped; the file holds ` +
        'every transaction committed before, so run the mirror again once there is room.',
    );
  }
  return error;
}

/**
 * A table's first copy through the bulk read (history.ts), when the feed has no cursor yet (a
 * new copy) or a load is under way; else nothing. A mirror of several shops reads one feed of
 * all of them, whose start a bulk read (one shop's) cannot give: its first copy walks that feed.
 */
async function firstCopy(
  client: MirrorClient,
  database: MirrorDatabase,
  feed: FeedSync,
  shop: string,
  o: MirrorOptions,
  emit: (event: MirrorEvent) => void,
): Promise<number> {
  const rows = database.rows;
  const underWay = (await rows.state(historyKey(feed.table, shop))) !== undefined;
  if (!underWay && (await rows.state(feed.cursorKey)) !== undefined) return 0;
  const resource = cursorResourceOf<Record<string, Json>>(client, feed.table.property);
  const load = { table: feed.table, resource, shop, feedKey: feed.cursorKey };
  return loadHistory(rows, { ...load, signal: o.signal, emit });
}

async function run(
  client: MirrorClient,
  database: MirrorDatabase,
  shops: Shop[],
  o: MirrorOptions & { window: number },
  explicit: boolean,
): Promise<MirrorSummary> {
  const emit = o.onEvent ?? (() => undefined);
  const scope: FeedScope =
    explicit && shops.length === 1
      ? { shopCode: shops[0].code }
      : { shops: explicit ? new Set(shops.map((s) => s.code)) : undefined };
  const feeds = TABLES.map(
    (t) =>
      new FeedSync(
        cursorResourceOf<Record<string, Json>>(client, t.property),
        t,
        database.rows,
        scope,
        emit,
      ),
  );
  const summary: MirrorSummary = {
    rows: {},
    records: 0,
    daysChecked: 0,
    daysRepaired: 0,
    differing: [],
  };
  const sessions = client.cashDrawerSessions as Pick<
    CursorResource<Record<string, Json>>,
    'list' | 'bulk'
  >;
  const reconcileAll = async (repair: boolean, signal = o.signal) => {
    summary.differing = [];
    for (const shop of shops) {
      const to = addDays(today(shop.timeZone, (o.now ?? Date.now)()), 1);
      const { from: start, to: end } = o.period ?? { from: addDays(to, -o.window - 1), to };
      // No digest of the sessions: a repairing pass re-reads them (sessions.ts), verify lists them.
      if (repair) {
        const options = { limit: o.limit, signal, emit };
        await refreshSessions(
          sessions,
          database.rows,
          shop.code,
          { from: start, to: end },
          options,
        );
      }
      const withSessions = !repair && (await database.rows.holds(CASH_DRAWER_SESSIONS.table));
      for (const period of digestPeriods(start, end)) {
        const results = await inLanes(feeds, signal, (feed, lane) => {
          const version = database.digestVersion;
          const query = { shop: shop.code, ...period, repair, version, by: o.by, signal: lane };
          const resource = cursorResourceOf<Record<string, Json>>(client, feed.table.property);
          return reconcile(resource, feed, database.rows, query, emit);
        });
        for (const result of results) {
          summary.daysChecked += result.daysChecked;
          summary.differing.push(...result.differing);
          if (repair) summary.daysRepaired += result.differing.length;
        }
        if (withSessions) {
          const options = { by: o.by, signal };
          const result = await compareSessions(sessions, database.rows, shop.code, period, options);
          summary.daysChecked += result.daysChecked;
          summary.differing.push(...result.differing);
        }
      }
    }
  };
  if (o.verifyOnly) {
    await reconcileAll(false);
  } else {
    const read = await inLanes(feeds, o.signal, async (feed, signal) => {
      // One shop's feeds: a first copy reads history in bulk, then the feed from its hand-over.
      const copied =
        scope.shopCode === undefined
          ? 0
          : await firstCopy(client, database, feed, scope.shopCode, { ...o, signal }, emit);
      return copied + (await feed.catchUp({ limit: o.limit, signal }));
    });
    summary.records += read.reduce((sum, n) => sum + n, 0);
    await reconcileAll(true);
    if (o.follow) emit({ type: 'following' });
    if (o.follow) await follow(feeds, o, summary, (signal) => reconcileAll(true, signal));
  }
  summary.rows = await database.rows.counts();
  return summary;
}
