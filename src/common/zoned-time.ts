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
 * local minute)'s offset is computed once, in a bounded cache.
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
 * The instant of a shop-local wall-clock time (`YYYY-MM-DD HH:MM:SS.mmm`, the stored form, or
 * with `T`) in `zone`, as RFC 3339 UTC with milliseconds (`2026-03-29T01:30:00.000Z`); null for
 * a null or unknown zone or a value that is not a date-time.
 */
export function instantOf(local: string, zone: string | null): string | null {
  if (zone === null) return null;
  const rest = SECONDS.exec(local.slice(16));
  if (!rest) return null;
  const key = `${zone}\u0000${local.slice(0, 16)}`;
  let kept = minutes.get(key);
  if (kept === undefined) {
    const m = WALL.exec(local);
    if (!m) return null;
    kept = keptFor(zone, Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]));
    if (minutes.size >= MAX_MINUTES) minutes.delete(minutes.keys().next().value as string);
    minutes.set(key, kept);
  }
  if (kept === null) return null;
  const seconds = rest[1] ?? '00';
  const ms = (rest[2] ?? '').padEnd(3, '0');
  if (typeof kept === 'string') return `${kept}:${seconds}.${ms}Z`;
  const minute = Date.UTC(
    +local.slice(0, 4),
    +local.slice(5, 7) - 1,
    +local.slice(8, 10),
    +local.slice(11, 13),
    +local.slice(14, 16),
  );
  return new Date(minute - kept + +seconds * 1000 + +ms).toISOString();
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
