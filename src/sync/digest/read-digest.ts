import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  canonicalRecord,
  dayDigest,
  type DayDigest,
  EMPTY_DAY_CHECKSUM,
  type VersionedDigest,
} from './day-checksums';
import type { DayOutcome } from './digest-cache';
import { dayBounds, type DigestQuery, parseDigestQuery } from './digest-query';
import { type DigestFields, projectRecord } from '../../catalogue/digest-versions';
import type { RawQuery } from '../../common/query/query-parameters';
import type { PagedEndpoint } from '../paging/paged-endpoint';
import type { CallerClaims } from '../../common/caller-claims';
import type { DayReads, Wall } from '../../wall/wall';
import type { KeysetPosition, PageQuery } from '../list/list.mode';
import {
  byFingerprints,
  type Changes,
  parseStamp,
  type StoredDay,
  stampText,
} from '../changes/change-source';

/**
 * What a digest reads: a resource's list endpoint, its source (a record's date is that of the
 * source's `time` column: `soldAt`, `paidAt`, `movedAt`) and its mapping, whose records the
 * checksum covers exactly as the list returns them.
 */
export type DigestEndpoint<R extends { id: string }, T extends object> = PagedEndpoint<
  PageQuery,
  { next: KeysetPosition | null },
  object,
  R,
  T
>;

/** Where a digest keeps the checksums it computed (sync/digest/digest-cache.ts). */
export interface DigestChecksums {
  readonly enabled: boolean;
  get(keys: readonly string[]): Promise<Array<string | null>>;
  set(entries: ReadonlyArray<readonly [string, string]>): void;
  count(outcome: DayOutcome, days?: number): void;
  /** The build running (digest-cache.ts: version, code hash, tz data): a new build may map the same rows otherwise. */
  readonly release: string;
}

const prefixes = new WeakMap<object, string>();

/**
 * The start of an endpoint's cache keys: what its records are made of. The build, and a hash of
 * the route, the source's declaration (table, columns, derived columns, attachments) and the mapping's own code:
 * a new field or a changed mapping never meets the checksums of the old one.
 */
function keyPrefix(
  list: Pick<DigestEndpoint<{ id: string }, object>, 'route' | 'source' | 'toRecord'>,
  release: string,
): string {
  let hash = prefixes.get(list);
  if (hash === undefined) {
    const { table, columns, derived, attached } = list.source;
    const what = JSON.stringify([
      list.route,
      table,
      columns,
      derived,
      attached,
      String(list.toRecord),
    ]);
    hash = createHash('sha256').update(what).digest('hex').slice(0, 16);
    prefixes.set(list, hash);
  }
  return `${release}:${hash}`;
}

/** A stored entry: `<fingerprint> <count> <checksum>[ <stamp>]` (a stamp: the log's position). */
interface Entry extends StoredDay {
  count: number;
  checksum: string;
}

function parseEntry(text: string | null): Entry | null {
  const [fingerprint, count, checksum, stamp] = (text ?? '').split(' ');
  if (!fingerprint || !checksum || !/^\d+$/.test(count ?? '')) return null;
  return { fingerprint, count: Number(count), checksum, since: parseStamp(stamp) };
}

/** Without a change source: the fingerprints answer every date. */
const FINGERPRINTS_ONLY: Changes = {
  changedDays: async (question) => ({
    now: null,
    days: (await byFingerprints(question)).map((verdict) => verdict ?? 'changed'),
  }),
};

/** Records mapped between two turns of the event loop: a digest never holds it for long. */
const SLICE = 100;

/** One date's checksum from its rows, read in id order through the wall, and their fingerprint. */
async function computeDay<R extends { id: string }, T extends object>(
  list: DigestEndpoint<R, T>,
  reads: DayReads<R>,
  query: DigestQuery,
  i: number,
  fields: readonly string[],
): Promise<{ day: DayDigest; fingerprint: string }> {
  const { rows, fingerprint } = await reads.day(dayBounds(query, i));
  return { day: await checksumOf(list, query.dates[i], rows, fields), fingerprint };
}

/** A date's digest of `rows`: each mapped as the list maps it, a slice per turn of the loop. */
async function checksumOf<R extends { id: string }, T extends object>(
  list: DigestEndpoint<R, T>,
  date: string,
  rows: readonly R[],
  fields: readonly string[],
): Promise<DayDigest> {
  const records = [];
  for (let start = 0; start < rows.length; start += SLICE) {
    if (start > 0) await nextTurn();
    for (const row of rows.slice(start, start + SLICE)) {
      records.push(canonicalRecord(projectRecord(list.toRecord(row), fields)));
    }
  }
  return dayDigest(date, records);
}

/**
 * The digest of one shop over a period of dates: date after date, the shop's records of that
 * date read in id order through the wall (one statement for the rows, one per attachment), each
 * row mapped as the list maps it, written with its keys in JCS order (canonicalRecord) and
 * folded into the date's checksum. Nothing but one date's rows is held at a time. A shop outside
 * the claims gives `{ data: [] }` without a read. Not a paginated mode: one answer per request.
 *
 * With `checksums` (issues 45, 57): the checksums stored for the period's dates, then what
 * changed since they were stored, asked of `changes` (sync/changes/change-source.ts): the binary
 * log when it is followed (no read for a date it vouches for), else the fingerprint of every
 * date, one grouped statement per table (sql/day-fingerprint.ts). A date without rows is the
 * empty digest without a read; a date unchanged answers its stored checksum; only the others (a
 * date whose fingerprint could not be computed whole is null: never equal) are read and hashed,
 * and stored with the fingerprint of exactly the rows read (the read selects each row's hash)
 * and the log's position taken before the read: an entry is always the checksum of the rows its
 * fingerprint describes, whatever changed between two statements (docs/sync.md, "The digests'
 * cache").
 */
export async function readDigest<R extends { id: string }, T extends object>(
  list: DigestEndpoint<R, T>,
  versions: DigestFields,
  wall: Pick<Wall, 'covers' | 'dayReads'>,
  caller: CallerClaims,
  raw: RawQuery,
  checksums?: DigestChecksums,
  changes?: Changes,
): Promise<VersionedDigest> {
  const query = parseDigestQuery(raw);
  const { version } = query;
  const fields = versions[version];
  if (!wall.covers(caller, query.shopCode)) return { version, data: [] };
  const reads = wall.dayReads(caller, list.source, query.shopCode);
  const data: DayDigest[] = [];
  if (query.byBusinessDate) {
    // By business date: each date's rows at each request, never cached (no fingerprint by date).
    for (const date of query.dates) {
      data.push(await checksumOf(list, date, await reads.businessDay(date), fields));
    }
    return { version, data };
  }
  if (!checksums?.enabled) {
    for (let i = 0; i < query.dates.length; i++) {
      data.push((await computeDay(list, reads, query, i, fields)).day);
    }
    return { version, data };
  }
  const prefix = `${keyPrefix(list, checksums.release)}:v${version}:${query.shopCode}:`;
  const keys = query.dates.map((date) => prefix + date);
  const entries = (await checksums.get(keys)).map(parseEntry);
  const { now, days } = await (changes ?? FINGERPRINTS_ONLY).changedDays({
    table: list.source.table,
    shop: query.shopCode,
    dates: query.dates,
    stored: entries,
    fingerprints: (first, last) =>
      reads.fingerprints({ from: dayBounds(query, first).from, to: dayBounds(query, last).to }),
  });
  const stamp = now ? ` ${stampText(now)}` : '';
  const store: Array<readonly [string, string]> = [];
  let [cached, empty] = [0, 0];
  for (let i = 0; i < query.dates.length; i++) {
    const [date, entry, verdict] = [query.dates[i], entries[i], days[i]];
    if (verdict === 'empty') {
      data.push({ date, count: 0, checksum: EMPTY_DAY_CHECKSUM });
      // A stamped empty date answers from the cache, as any other, while the log vouches for it.
      if (now) store.push([keys[i], `- 0 ${EMPTY_DAY_CHECKSUM}${stamp}`]);
      empty++;
      continue;
    }
    if ((verdict === 'unchanged' || verdict === 'rechecked') && entry) {
      data.push({ date, count: entry.count, checksum: entry.checksum });
      // Vouched for by its fingerprint, read after `now`: stamped anew, the log answers next time.
      if (now && verdict === 'rechecked') {
        store.push([keys[i], `${entry.fingerprint} ${entry.count} ${entry.checksum}${stamp}`]);
      }
      cached++;
      continue;
    }
    const { day, fingerprint } = await computeDay(list, reads, query, i, fields);
    data.push(day);
    if (day.count > 0 || now)
      store.push([keys[i], `${fingerprint} ${day.count} ${day.checksum}${stamp}`]);
  }
  checksums.count('cached', cached);
  checksums.count('empty', empty);
  checksums.count('computed', query.dates.length - cached - empty);
  checksums.set(store);
  return { version, data };
}
