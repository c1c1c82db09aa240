import type { CursorResource } from '../resources.js';
import type { MirrorEvent } from './feeds.js';
import { canonicalJson, dayChecksum, type Json } from './jcs.js';
import type { DayKind, MirrorRows } from './mirror-rows.js';
import { addDays, type DifferingDay } from './reconcile.js';
import { historyKey, loadHistory } from './history.js';
import { CASH_DRAWER_SESSIONS } from './schema.js';

type ApiRecord = Record<string, Json>;
type Sessions = Pick<CursorResource<ApiRecord>, 'list' | 'bulk'>;

/** Opening dates [from, to), `YYYY-MM-DD`; both absent: every session of the shop. */
interface SessionSpan {
  from?: string;
  to?: string;
}

/** A re-read of one shop's drawer sessions under way, as kept in `mirror_state`. */
interface SessionWalk extends SessionSpan {
  /** The list's cursor of the next page. */
  cursor: string;
  /** The (openedAt, id) of the last session written. */
  after: [string, string];
}

/** `mirror_state` keys: the walk under way, and the mark of a whole read done. */
const walkKey = (shop: string) => `sessions:${shop}`;
const wholeKey = (shop: string) => `sessions-whole:${shop}`;

const sameSpan = (a: SessionSpan | undefined, b: SessionSpan) =>
  a !== undefined && a.from === b.from && a.to === b.to;

interface WalkOptions {
  limit?: number;
  signal?: AbortSignal;
  emit: (event: MirrorEvent) => void;
}

/**
 * One walk over the sessions opened in `span`, page by page, each page with the walk's cursor
 * in one transaction: a walk stopped half-way resumes from the last page written, and a session
 * the server no longer lists is deleted from the span its page covered. `done`: a state key set
 * in the last page's transaction.
 */
async function walkSessions(
  resource: Sessions,
  rows: MirrorRows,
  shop: string,
  span: SessionSpan,
  resumed: SessionWalk | undefined,
  o: WalkOptions & { done?: string },
): Promise<number> {
  const key = walkKey(shop);
  const walk = { from: span.from, to: span.to, after: resumed?.after ?? null };
  const list = resource.list({
    shopCode: shop,
    from: span.from,
    to: span.to,
    cursor: resumed?.cursor,
    limit: o.limit,
    signal: o.signal,
  });
  let written = 0;
  for await (const page of list.pages()) {
    const last = page.data.at(-1);
    // An empty page before the last (none is expected) covers no span: from the last key to it.
    const upTo: [string, string] | null =
      page.nextCursor === null
        ? null
        : last
          ? [last.openedAt as string, last.id as string]
          : (walk.after ?? [span.from ?? '', '0']);
    const next: SessionWalk | undefined =
      upTo === null ? undefined : { ...span, cursor: page.nextCursor as string, after: upTo };
    const states: Array<[string, string | undefined]> = [[key, next && JSON.stringify(next)]];
    if (next === undefined && o.done) states.push([o.done, 'true']);
    await rows.replaceSessions(shop, walk, upTo, page.data, states);
    walk.after = upTo;
    written += page.data.length;
    o.emit({ type: 'page', resource: 'cash-drawer-sessions', records: page.data.length });
  }
  return written;
}

/**
 * The drawer sessions have a list only: a session changes when it is counted, hours, a night or
 * weeks after it opened (docs/sync.md, "From the till to your database"). So:
 * - the first pass over a shop reads every session the list has for it (no period), and marks
 *   the shop's sessions whole in the transaction of the last page; through the bulk read
 *   (history.ts) when the copy holds none of the shop's sessions yet;
 * - every later pass re-reads the sessions opened in its period (the window the digests compare,
 *   or --from/--to), and the opening day of each session opened before the period that is
 *   still OPEN in the copy and the last of its register opened before the period: the only
 *   sessions before the period that can still change (an earlier open one was left when its
 *   register opened the next; a closed one is done).
 * A walk stopped half-way (`mirror_state` `sessions:<shop>`) is finished first. Returns the
 * sessions written.
 */
export async function refreshSessions(
  resource: Sessions,
  rows: MirrorRows,
  shop: string,
  period: { from: string; to: string },
  o: WalkOptions,
): Promise<number> {
  const saved = await rows.state(walkKey(shop));
  const resumed = saved ? (JSON.parse(saved) as SessionWalk) : undefined;
  const whole = { done: wholeKey(shop) };
  let written = 0;
  if (resumed) {
    const span = { from: resumed.from, to: resumed.to };
    const done = span.from === undefined ? whole : {};
    written += await walkSessions(resource, rows, shop, span, resumed, { ...o, ...done });
    if (span.from === undefined) return written;
  }
  if ((await rows.state(wholeKey(shop))) === undefined) {
    // A copy without the shop's sessions reads them in bulk; one holding some (made before the
    // whole read), by the list's walk, which also deletes those the list no longer has.
    const table = CASH_DRAWER_SESSIONS;
    const underWay = (await rows.state(historyKey(table, shop))) !== undefined;
    if (underWay || !(await rows.holdsShop(table, shop))) {
      const load = { table, resource, shop, doneKey: wholeKey(shop), ...o };
      return written + (await loadHistory(rows, load));
    }
    return written + (await walkSessions(resource, rows, shop, {}, undefined, { ...o, ...whole }));
  }
  const before = await rows.openSessionDaysBefore(shop, period.from);
  if (!sameSpan(resumed, period)) {
    written += await walkSessions(resource, rows, shop, period, undefined, o);
  }
  for (const day of before) {
    const span = { from: day, to: addDays(day, 1) };
    written += await walkSessions(resource, rows, shop, span, undefined, o);
  }
  return written;
}

/**
 * `pos-read verify` of the drawer sessions: no digest exists for them, so the list of the
 * period is read (by opening time, or by business date) and compared, day by day, row by row
 * with the copy, each record as canonical JSON. Returns the days compared and those that differ.
 */
export async function compareSessions(
  resource: Sessions,
  rows: MirrorRows,
  shop: string,
  period: { from: string; to: string },
  o: { by?: DayKind; signal?: AbortSignal },
): Promise<{ daysChecked: number; differing: DifferingDay[] }> {
  const by = o.by ?? 'calendar-date';
  const dayOf = (r: ApiRecord) =>
    by === 'business-date' ? (r.businessDate as string) : (r.openedAt as string).slice(0, 10);
  const query =
    by === 'business-date'
      ? { businessDateFrom: period.from, businessDateTo: period.to }
      : { from: period.from, to: period.to };
  const server = new Map<string, ApiRecord[]>();
  const listed = resource.list({ shopCode: shop, ...query, signal: o.signal });
  for await (const record of listed) {
    const records = server.get(dayOf(record)) ?? [];
    records.push(record);
    server.set(dayOf(record), records);
  }
  const local = await rows.sessionDays(shop, period.from, period.to, by);
  const byId = (records: ApiRecord[]) =>
    records
      .map((record) => ({ id: BigInt(record.id as string), record }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ record }) => record);
  const differing: DifferingDay[] = [];
  let daysChecked = 0;
  for (let day = period.from; day < period.to; day = addDays(day, 1)) {
    daysChecked++;
    const theirs = byId(server.get(day) ?? []);
    const mine = byId(local.get(day) ?? []);
    const same =
      theirs.length === mine.length &&
      theirs.every((record, i) => canonicalJson(record) === canonicalJson(mine[i]));
    if (same) continue;
    differing.push({
      resource: 'cash-drawer-sessions',
      shop,
      date: day,
      server: { count: theirs.length, checksum: dayChecksum(theirs) },
      mirror: { count: mine.length, checksum: dayChecksum(mine) },
    });
  }
  return { daysChecked, differing };
}
