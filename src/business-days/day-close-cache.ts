import { addDays } from '../common/query/filter-parameters';
import type { Source } from '../catalogue/source';
import type { DigestVersion } from '../catalogue/digest-versions';
import {
  type ChangePoint,
  type Changes,
  parseStamp,
  stampText,
} from '../sync/changes/change-source';
import { businessDayTable } from '../sync/changes/dirty-days';
import type { BusinessDayDto } from './business-day.dto';

/**
 * The close of one business day as the digests' cache keeps it (DigestCache, its own key part):
 * the log's position read before its walks, the last calendar date its cash reads, the entry.
 */
export interface StoredClose {
  since: ChangePoint;
  until: string;
  day: BusinessDayDto;
}

/** A close's key: the build first (as the digests'), then what sets it apart from theirs. */
export const closeKey = (release: string, version: DigestVersion, shop: string, date: string) =>
  `${release}:close:v${version}:${shop}:${date}`;

/** `<stamp> <until> <the entry's JSON>` */
export const closeText = (since: ChangePoint, until: string, day: BusinessDayDto): string =>
  `${stampText(since)} ${until} ${JSON.stringify(day)}`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A stored close, or null for anything else (none, another shape, a value cut short). */
export function parseClose(text: string | null, date: string): StoredClose | null {
  const match = /^(\S+) (\S+) (\{.*\})$/s.exec(text ?? '');
  const since = parseStamp(match?.[1]);
  if (!match || !since || !DATE.test(match[2])) return null;
  try {
    const day = JSON.parse(match[3]) as BusinessDayDto;
    return day.businessDate === date ? { since, until: match[2], day } : null;
  } catch {
    return null;
  }
}

/**
 * Where the marks of the close's inputs are kept (sync/changes/dirty-days.ts): by business day
 * (`byDay`: the sales', the payments'), or by calendar date over the span of a day's sessions
 * (`bySpan`: the cash movements', whose business date is their session's, and the sessions').
 * Null when an input's table is not one the change source follows (the digests' tables): the
 * log could not vouch for it, and the close is never cached.
 */
export interface CloseTables {
  byDay: string[];
  bySpan: string[];
}

export function closeTables(
  inputs: readonly Source<unknown>[],
  followed: readonly Source<unknown>[],
): CloseTables | null {
  const tables = new Set(followed.map((source) => source.table));
  if (!inputs.every((source) => tables.has(source.table))) return null;
  const byDay = new Set<string>();
  const bySpan = new Set<string>();
  for (const source of inputs) {
    const table = businessDayTable(source);
    if (table === null) bySpan.add(source.table);
    else byDay.add(table);
  }
  return { byDay: [...byDay], bySpan: [...bySpan] };
}

/** The longest span of a day's sessions the cache keeps (a count months later: not cached). */
export const MAX_SPAN_DAYS = 92;

/** One question to the change source: a table's dates, each with the stamp it must hold since. */
export interface CloseQuestion {
  table: string;
  dates: string[];
  since: Array<ChangePoint | null>;
  /** By calendar date: a day holds when every date of its span does. */
  span: boolean;
}

/**
 * The oldest of `stamps` when all are of one epoch (what holds since it holds since each), else
 * null; null for none (a date no stored entry needs).
 */
function oldest(stamps: readonly ChangePoint[]): ChangePoint | null {
  if (stamps.length === 0) return null;
  if (stamps.some((stamp) => stamp.epoch !== stamps[0].epoch)) return null;
  return stamps.reduce((a, b) => (b.position < a.position ? b : a));
}

/** Every date from `from` to `to`, both included. */
function datesFrom(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/**
 * What the close asks the change source about `dates` (in order), given what is stored for
 * each: per business-day table, the dates with an entry, each since its stamp; per calendar
 * table, every date of the stored entries' spans, each since the oldest stamp of the entries
 * whose span holds it. None when nothing is stored (the cold close asks only for a position).
 */
export function closeQuestions(
  tables: CloseTables,
  dates: readonly string[],
  stored: ReadonlyArray<StoredClose | null>,
): CloseQuestion[] {
  const kept = dates.flatMap((date, i) => {
    const entry = stored[i];
    return entry && entry.until >= date && entry.until <= addDays(date, MAX_SPAN_DAYS)
      ? [{ date, entry }]
      : [];
  });
  if (kept.length === 0) return [];
  const byDay = tables.byDay.map((table) => ({
    table,
    dates: kept.map((k) => k.date),
    since: kept.map((k) => k.entry.since),
    span: false,
  }));
  const last = kept.reduce((top, k) => (k.entry.until > top ? k.entry.until : top), '');
  const span = datesFrom(kept[0].date, last);
  const since = span.map((date) =>
    oldest(kept.filter((k) => k.date <= date && date <= k.entry.until).map((k) => k.entry.since)),
  );
  const bySpan = tables.bySpan.map((table) => ({ table, dates: span, since, span: true }));
  return [...byDay, ...bySpan];
}

/**
 * Per date of `dates`, whether its stored close holds: it is stored and every question's answer
 * (`held[q][i]`: its i-th date holds by the log) vouches for it: its own date in each
 * business-day table, every date of its span in each calendar table.
 */
export function heldDays(
  dates: readonly string[],
  stored: ReadonlyArray<StoredClose | null>,
  questions: readonly CloseQuestion[],
  held: ReadonlyArray<readonly boolean[]>,
): boolean[] {
  const holds = questions.map((q, n) => new Map(q.dates.map((date, i) => [date, held[n][i]])));
  return dates.map((date, i) => {
    const entry = stored[i];
    if (!entry || questions.length === 0) return false;
    return questions.every((q, n) =>
      datesFrom(date, q.span ? entry.until : date).every((d) => holds[n].get(d) === true),
    );
  });
}

/**
 * Which of `dates`' stored closes hold, asked of `changes` (the ChangeSource) question by
 * question, at once (a barrier each), and the position to stamp new entries with: the oldest of
 * the answers' (each read before the walks), null when any could not be given (the log not
 * followed, a break between them). Only the log answers: no fingerprint is kept by business
 * date, so every date's is null (never equal) and a day the log cannot vouch for is walked.
 */
export async function vouched(
  changes: Changes,
  shop: string,
  tables: CloseTables,
  dates: readonly string[],
  stored: ReadonlyArray<StoredClose | null>,
): Promise<{ now: ChangePoint | null; held: boolean[] }> {
  const questions = closeQuestions(tables, dates, stored);
  // Nothing stored: one question without dates, for the position alone.
  const asked: CloseQuestion[] =
    questions.length > 0
      ? questions
      : [{ table: [...tables.byDay, ...tables.bySpan][0], dates: [], since: [], span: false }];
  const answers = await Promise.all(
    asked.map((q) =>
      changes.changedDays({
        table: q.table,
        shop,
        dates: q.dates,
        stored: q.since.map((since) => since && { fingerprint: '', since }),
        fingerprints: () => Promise.resolve(new Map(q.dates.map((date) => [date, null]))),
      }),
    ),
  );
  const nows = answers.map((answer) => answer.now);
  const now = nows.every((n): n is ChangePoint => n !== null) ? oldest(nows) : null;
  const holds = answers.map((answer) => answer.days.map((verdict) => verdict === 'unchanged'));
  return { now, held: heldDays(dates, stored, questions, holds) };
}

/** The runs of consecutive dates of `dates` (in order) that do not hold: what is walked. */
export function runsOf(dates: readonly string[], held: readonly boolean[]): string[][] {
  const runs: string[][] = [];
  dates.forEach((date, i) => {
    if (held[i]) return;
    if (i > 0 && !held[i - 1]) runs[runs.length - 1].push(date);
    else runs.push([date]);
  });
  return runs;
}
