import { canonicalize } from 'json-canonicalize';
import { createHash } from 'node:crypto';

/** The checksum of a day without records: SHA-256 of the empty string. */
export const EMPTY_DAY_CHECKSUM = createHash('sha256').digest('hex');

/** One date of a digest: how many records it holds and their checksum. */
export interface DayDigest {
  /** Shop-local calendar date, `YYYY-MM-DD`. */
  date: string;
  count: number;
  /** Lowercase hex SHA-256 (docs/sync.md, "The checksum"). */
  checksum: string;
}

/** The digest envelope: one entry per date of the period, in date order. */
export interface Digest {
  data: DayDigest[];
}

/**
 * A record's line of the checksum: its RFC 8785 (JCS) canonical JSON followed by one `\n`. The
 * record is the object the list endpoint returns, so a client computes the same line from its
 * copy (json-canonicalize, an implementation of RFC 8785).
 */
export function checksumLine(record: object): string {
  return `${canonicalize(record)}\n`;
}

const byNumericId = (a: { id: bigint }, b: { id: bigint }): number =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The digests of consecutive dates, fed the records of a period in (date-time, id) order, as the
 * keyset read returns them. The checksum takes a day's records in ascending numeric id order,
 * which within a day may differ from the read's order (a record rung up earlier but given a later
 * id): each day's lines are held until the day ends, sorted by id, then hashed. Memory is one
 * day's lines, whatever the period.
 */
export class DayChecksums {
  private readonly done: DayDigest[] = [];
  private day: string | null = null;
  private lines: Array<{ id: bigint; line: string }> = [];

  /** `dates`: every date of the period, in order; each gets an entry, empty or not. */
  constructor(private readonly dates: readonly string[]) {}

  /** The next record of the period, of calendar date `date`. */
  add(date: string, id: string, record: object): void {
    if (date !== this.day) this.closeThrough(date);
    this.lines.push({ id: BigInt(id), line: checksumLine(record) });
  }

  /** Every date's digest, in date order. */
  finish(): DayDigest[] {
    this.closeThrough(null);
    return this.done;
  }

  /** Closes the open day and every empty date before `next` (null: the end of the period). */
  private closeThrough(next: string | null): void {
    if (next !== null && this.day !== null && next < this.day) {
      throw new Error(`record dated ${next} out of order`);
    }
    if (this.day !== null) this.done.push(this.digestOf(this.day));
    for (let i = this.done.length; i < this.dates.length && this.dates[i] !== next; i++) {
      this.done.push({ date: this.dates[i], count: 0, checksum: EMPTY_DAY_CHECKSUM });
    }
    if (next !== null && this.done.length === this.dates.length) {
      throw new Error(`record dated ${next} outside the period`);
    }
    this.day = next;
    this.lines = [];
  }

  private digestOf(date: string): DayDigest {
    const hash = createHash('sha256');
    this.lines.sort(byNumericId);
    for (const { line } of this.lines) hash.update(line, 'utf8');
    return { date, count: this.lines.length, checksum: hash.digest('hex') };
  }
}
