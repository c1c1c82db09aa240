/**
 * Shop-local wall-clock times to instants (issue 42, item 1): `soldAtUtc`, `paidAtUtc`,
 * `movedAtUtc` from the stored local time and the shop's IANA zone (`bo_shops.time_zone`), with
 * Intl's zone data (no dependency). The rule is Temporal's `compatible` disambiguation: a time in
 * a spring-forward gap is read with the offset in force before the transition, so it lands after
 * the gap (Europe/Madrid 2026-03-29 02:30 → 01:30Z, the instant 03:30 names); a time in a
 * fall-back overlap is the earlier of its two instants (Europe/Madrid 2026-10-25 02:30 →
 * 00:30Z). An unknown zone, or a value that is not a date-time, gives null (docs/database.md,
 * "Business dates and instants").
 *
 * It runs on every record of every page, so each zone's formatter is made once and each (zone,
 * local hour)'s offset is computed once (minute by minute in an hour that holds a change), in
 * bounded caches.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * What a (zone, local minute) gives, kept: its instant's minute in RFC 3339 (`2026-03-29T01:30`;
 * the seconds and milliseconds are the local time's, as every offset in use is whole minutes),
 * the offset itself for an offset with seconds (local mean times before 1900), or null for an
 * unknown zone. The oldest written first out past MAX_MINUTES.
 */
type Kept = string | number | null;
const MAX_MINUTES = 20_000;
const minutes = new Map<string, Kept>();
const SECONDS = /^(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** The zone's formatter to numeric wall-clock parts; null for a zone Intl does not know. */
function formatterOf(zone: string): Intl.DateTimeFormat | null {
  let format = formatters.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      format = null;
    }
    // Unknown names are kept too (as null), within the same bound as the offsets.
    if (formatters.size >= MAX_MINUTES) formatters.clear();
    formatters.set(zone, format);
  }
  return format;
}

/** The zone's offset at an instant, in ms: its wall-clock time read as UTC, minus the instant. */
function offsetAt(format: Intl.DateTimeFormat, instant: number): number {
  const at = Math.floor(instant / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const local = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
  return local - at;
}

/**
 * The offset to subtract from a local minute (its wall-clock time read as UTC) to get its
 * instant, by the `compatible` rule: the offsets a day before and a day after bound it (no zone
 * changes its offset twice within two days); one that maps back to the same local time is a
 * valid reading; of two, the earlier instant (overlap); of none, the earlier offset (gap).
 */
function offsetFor(format: Intl.DateTimeFormat, localMinute: number): number {
  const before = offsetAt(format, localMinute - DAY_MS);
  const after = offsetAt(format, localMinute + DAY_MS);
  const valid = [before, after].filter(
    (offset) => offsetAt(format, localMinute - offset) === offset,
  );
  if (valid.length === 0) return before;
  // The earlier instant is the larger offset's.
  return Math.max(...valid);
}

/**
 * What a (zone, local hour) gives when every minute of it has one offset (no change within it):
 * its instant's hour (`2026-03-29T01`) for an offset of whole hours, else the offset in ms; null
 * for an unknown zone; MIXED for an hour with a change in it, then read minute by minute.
 */
const MIXED = 'mixed';
const hours = new Map<string, Kept>();
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The instant of a shop-local wall-clock time (`YYYY-MM-DD HH:MM:SS.mmm`, the stored form, or
 * with `T`) in `zone`, as RFC 3339 UTC with milliseconds (`2026-03-29T01:30:00.000Z`); null for
 * a null or unknown zone or a value that is not a date-time. Kept by local hour: the offset as
 * a function of the local minute steps once at a change (no zone changes twice within two days),
 * so an hour whose first and last minutes share an offset has it in every minute.
 */
export function instantOf(local: string, zone: string | null): string | null {
  if (zone === null) return null;
  const rest = SECONDS.exec(local.slice(16));
  if (!rest) return null;
  const hour = keptIn(hours, `${zone}\u0000${local.slice(0, 13)}`, local, (m) =>
    keptForHour(zone, Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4])),
  );
  if (hour !== MIXED) return written(hour, local, rest, 13);
  const minute = keptIn(minutes, `${zone}\u0000${local.slice(0, 16)}`, local, (m) =>
    keptFor(zone, Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])),
  );
  return written(minute, local, rest, 16);
}

/**
 * What `cache` keeps under `key`, made from the local time's parts when missing; undefined for a
 * value that is no date-time.
 */
function keptIn(
  cache: Map<string, Kept>,
  key: string,
  local: string,
  make: (parts: RegExpExecArray) => Kept,
): Kept | undefined {
  let kept = cache.get(key);
  if (kept === undefined) {
    const m = WALL.exec(local);
    if (!m) return undefined;
    kept = make(m);
    if (cache.size >= MAX_MINUTES) cache.delete(cache.keys().next().value as string);
    cache.set(key, kept);
  }
  return kept;
}

/**
 * The instant from what was kept of its hour (`cut` 13) or minute (16): the instant's prefix up
 * to there followed by the local rest, or the local time shifted by the offset.
 */
function written(
  kept: Kept | undefined,
  local: string,
  rest: RegExpExecArray,
  cut: number,
): string | null {
  if (kept === null || kept === undefined) return null;
  const seconds = rest[1] ?? '00';
  const ms = (rest[2] ?? '').padEnd(3, '0');
  if (typeof kept === 'string') return `${kept}${local.slice(cut, 16)}:${seconds}.${ms}Z`;
  const minute = Date.UTC(
    +local.slice(0, 4),
    +local.slice(5, 7) - 1,
    +local.slice(8, 10),
    +local.slice(11, 13),
    +local.slice(14, 16),
  );
  return new Date(minute - kept + +seconds * 1000 + +ms).toISOString();
}

/**
 * A zone's offset over a whole local day, when its first and last minutes share it (then every
 * minute between does, by the same rule as an hour's); undefined for a day with a change in it.
 * Kept by (zone, day): a year's read asks 365 of these, not 8,760 hours' worth.
 */
const days = new Map<string, number | undefined>();

function uniformDayOffset(
  zone: string,
  format: Intl.DateTimeFormat,
  hour: number,
): number | undefined {
  const midnight = hour - (((hour % DAY_MS) + DAY_MS) % DAY_MS);
  const key = `${zone}\u0000${midnight}`;
  if (days.has(key)) return days.get(key);
  const first = offsetFor(format, midnight);
  const uniform = offsetFor(format, midnight + DAY_MS - MINUTE_MS) === first ? first : undefined;
  if (days.size >= MAX_MINUTES) days.delete(days.keys().next().value as string);
  days.set(key, uniform);
  return uniform;
}

/** What a local hour of a zone gives (`hours`). */
function keptForHour(zone: string, hour: number): Kept {
  if (Number.isNaN(hour)) return null;
  const format = formatterOf(zone);
  if (!format) return null;
  const uniform = uniformDayOffset(zone, format, hour);
  const offset = uniform ?? offsetFor(format, hour);
  if (uniform === undefined && offsetFor(format, hour + 59 * MINUTE_MS) !== offset) return MIXED;
  if (offset % HOUR_MS !== 0) return offset;
  return new Date(hour - offset).toISOString().slice(0, 13);
}

/** What a local minute of a zone gives (Kept). */
function keptFor(zone: string, minute: number): Kept {
  if (Number.isNaN(minute)) return null;
  const format = formatterOf(zone);
  if (!format) return null;
  const offset = offsetFor(format, minute);
  if (offset % MINUTE_MS !== 0) return offset;
  return new Date(minute - offset).toISOString().slice(0, 16);
}
