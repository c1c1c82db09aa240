import type { CursorResource, ShopsResource } from '../resources.js';
import type { Shop } from '../types.js';
import { FeedSync, type FeedScope, type MirrorEvent } from './feeds.js';
import { follow } from './follow.js';
import type { Json } from './jcs.js';
import { MirrorFile, MirrorFileError } from './mirror-file.js';
import { addDays, type DifferingDay, reconcile } from './reconcile.js';
import { TABLES } from './schema.js';
import { type DatabaseConstructor, loadSqliteDriver } from './sqlite-driver.js';

export interface MirrorOptions {
  /** The SQLite file (created when missing). */
  into: string;
  /** Shop codes; default every shop of the token (`/shops`). */
  shops?: string[];
  /** Days back from today (shop-local) whose digests are compared, 1..91 (default 35). */
  window?: number;
  /** Keep going: feeds held open with `Wait`, the window reconciled every `reconcileEvery`. */
  follow?: boolean;
  /** Seconds between reconciliations when following (default 300). */
  reconcileEvery?: number;
  /** Seconds a follow's feed call may be held (`Wait`, default 20). */
  wait?: number;
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

/** What the mirror uses of a PosReadClient. */
interface MirrorClient {
  readonly baseUrl: string;
  readonly shops: ShopsResource;
  readonly sales: CursorResource<unknown>;
  readonly payments: CursorResource<unknown>;
  readonly cashMovements: CursorResource<unknown>;
}

/** Today in a shop's zone, `YYYY-MM-DD`. */
function today(timeZone: string, now: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(now);
}

async function shopsOf(client: MirrorClient, wanted: string[] | undefined, signal?: AbortSignal) {
  const all = await client.shops.list({ signal });
  if (!wanted || wanted.length === 0) return all;
  const unknown = wanted.filter((code) => !all.some((shop) => shop.code === code));
  if (unknown.length > 0) {
    throw new MirrorFileError(`the token may not read the shop(s) ${unknown.join(', ')}`);
  }
  return all.filter((shop) => wanted.includes(shop.code));
}

/**
 * Keeps a SQLite file equal to what the API returns for the shops (packages/client/README.md,
 * "Mirror"): inserts from the feeds, edits and deletes from the digests over the window.
 */
export async function mirror(client: MirrorClient, o: MirrorOptions): Promise<MirrorSummary> {
  const window = o.window ?? DEFAULT_WINDOW;
  if (!Number.isInteger(window) || window < 1 || window > 91) {
    throw new RangeError('mirror: window is a whole number of days, 1 to 91');
  }
  const Driver = o.sqlite ?? (await loadSqliteDriver());
  const shops = await shopsOf(client, o.shops, o.signal);
  const explicit = o.shops && o.shops.length > 0;
  const identity = {
    baseUrl: client.baseUrl,
    shops: explicit
      ? shops
          .map((s) => s.code)
          .sort()
          .join(',')
      : '*',
  };
  // Without onEvent a warning still shows: Node prints process warnings on standard error.
  const warn = (message: string) =>
    o.onEvent
      ? o.onEvent({ type: 'warning', message })
      : process.emitWarning(message, 'PosReadMirrorWarning');
  const file = MirrorFile.open(Driver, o.into, identity, o.verifyOnly === true, warn);
  try {
    return await run(client, file, shops, { ...o, window }, explicit === true);
  } catch (error) {
    throw diskFull(error, o.into);
  } finally {
    file.close();
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

async function run(
  client: MirrorClient,
  file: MirrorFile,
  shops: Shop[],
  o: MirrorOptions & { window: number },
  explicit: boolean,
): Promise<MirrorSummary> {
  const emit = o.onEvent ?? (() => undefined);
  const scope: FeedScope =
    explicit && shops.length === 1
      ? { shopCode: shops[0].code }
      : { shops: explicit ? new Set(shops.map((s) => s.code)) : undefined };
  const resources = {
    sales: client.sales,
    payments: client.payments,
    'cash-movements': client.cashMovements,
  } as unknown as Record<string, CursorResource<Record<string, Json>>>;
  const feeds = TABLES.map((t) => new FeedSync(resources[t.resource], t, file.rows, scope, emit));
  const summary: MirrorSummary = {
    rows: {},
    records: 0,
    daysChecked: 0,
    daysRepaired: 0,
    differing: [],
  };
  const reconcileAll = async (repair: boolean, signal = o.signal) => {
    summary.differing = [];
    for (const shop of shops) {
      const to = addDays(today(shop.timeZone, (o.now ?? Date.now)()), 1);
      const from = addDays(to, -o.window - 1);
      for (const feed of feeds) {
        const query = { shop: shop.code, from, to, repair, signal };
        const result = await reconcile(
          resources[feed.table.resource],
          feed,
          file.rows,
          query,
          emit,
        );
        summary.daysChecked += result.daysChecked;
        summary.differing.push(...result.differing);
        if (repair) summary.daysRepaired += result.differing.length;
      }
    }
  };
  if (o.verifyOnly) {
    await reconcileAll(false);
  } else {
    for (const feed of feeds) {
      summary.records += await feed.catchUp({ limit: o.limit, signal: o.signal });
    }
    await reconcileAll(true);
    if (o.follow) await follow(feeds, o, summary, (signal) => reconcileAll(true, signal));
  }
  summary.rows = file.rows.counts();
  return summary;
}
