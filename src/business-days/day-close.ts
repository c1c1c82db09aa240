import { canonicalRecord, type CanonicalRecord, dayDigest } from '../sync/digest/day-checksums';
import { projectRecord } from '../catalogue/digest-versions';
import { cents, fromCents } from '../common/sql-values';
import type { BusinessDayDigestDto, BusinessDayDto } from './business-day.dto';

/** What the close reads of a sale record (GET /sales's, from its mapper). */
export interface SaleFacts {
  id: string;
  businessDate: string;
  kind: string;
  status: string;
  totalGross: string;
  totalNet: string;
  totalTax: string;
  totalDiscount: string;
  lines: ReadonlyArray<{ taxRate: string; net: string; tax: string; gross: string }>;
}

/** What the close reads of a payment record (GET /payments's). */
export interface PaymentFacts {
  id: string;
  businessDate: string | null;
  method: string;
  amount: string;
}

/** What the close reads of a cash movement record (GET /cash-movements's). */
export interface MovementFacts {
  id: string;
  businessDate: string | null;
}

/** What the close reads of a drawer session record (GET /cash-drawer-sessions's). */
export interface SessionFacts {
  id: string;
  businessDate: string;
  status: string;
  openingFloat: string;
  expected: string;
  counted: string | null;
  discrepancy: string | null;
  /** The count's local date-time (`YYYY-MM-DDTHH:mm:ss…`); null while open. */
  closedAt: string | null;
}

/** The digests' three resources, in the answer's order. */
export type Digested = 'sales' | 'payments' | 'cashMovements';

interface Sums {
  [field: string]: bigint;
}

const add = (sums: Sums, field: string, amount: string | null) => {
  if (amount !== null) sums[field] = (sums[field] ?? 0n) + cents(amount);
};

/** One day's figures while the walks run: exact cents, counts, and the records to digest. */
class OpenDay {
  readonly counts = { completed: 0, returns: 0, voided: 0, payments: 0, sessions: 0, open: 0 };
  readonly sales: Sums = {};
  readonly rates = new Map<string, Sums>();
  readonly methods = new Map<string, { count: number; amount: bigint }>();
  readonly cash: Sums = {};
  /** The latest calendar date of a count of the day's sessions ('' without one). */
  lastCount = '';
  /** The records of each digested resource, held until its walk has passed the day's range. */
  readonly held: Record<Digested, Array<{ id: bigint; record: CanonicalRecord }>> = {
    sales: [],
    payments: [],
    cashMovements: [],
  };
  readonly digests: Partial<Record<Digested, BusinessDayDigestDto>> = {};
  /**
   * Per resource, the exclusive end (stored form) of the time range holding the day's records:
   * null when unbounded (a session still open), NONE without records, unset before its walk.
   */
  readonly until: Partial<Record<Digested, string | null>> = {};
}

/** The end of the range of a day without records: before any time, so nothing counts in it. */
const NONE = '';

/**
 * The close of a period of business dates, built from the records as the list endpoints map
 * them (their own mappers, passed in): figures summed in exact cents, and each day's digests by
 * the digests' own functions (canonicalRecord, projectRecord, dayDigest) over the records of
 * that business date in id order. Before each walk, the time range of every day's records from
 * the data (`bound`: readBusinessDateRanges); a record counts on its business date when its time
 * lies before the end of that day's range, and a day's records are held only until the walk
 * has passed that end (`passed`), so memory follows the days still open, not the period.
 */
export class DayClose {
  private readonly days = new Map<string, OpenDay>();

  constructor(
    readonly dates: readonly string[],
    private readonly fields: Readonly<Record<Digested, readonly string[]>>,
  ) {
    for (const date of dates) this.days.set(date, new OpenDay());
  }

  /** The time ranges of `resource`'s records by business date, before its walk. */
  bound(resource: Digested, ranges: ReadonlyMap<string, { to: string | null }>): void {
    for (const [date, day] of this.days) {
      const range = ranges.get(date);
      day.until[resource] = range ? range.to : NONE;
    }
  }

  /**
   * The open day of a `resource` record of business date `date` at `time` (stored form), if the
   * time lies before the end of that day's range: a record inserted past it after the range was
   * read waits for the next close, as on a list by business date.
   */
  private day(resource: Digested, date: string | null, time: string): OpenDay | undefined {
    const day = date === null ? undefined : this.days.get(date);
    const until = day?.until[resource];
    if (!day || until === undefined || day.digests[resource]) return undefined;
    return until === null || time < until ? day : undefined;
  }

  private hold(day: OpenDay, resource: Digested, record: { id: string }): void {
    const projected = projectRecord(record, this.fields[resource]);
    day.held[resource].push({ id: BigInt(record.id), record: canonicalRecord(projected) });
  }

  /** A sale record, `time` its row's time (soldAt). */
  sale(record: SaleFacts, time: string): void {
    const day = this.day('sales', record.businessDate, time);
    if (!day) return;
    this.hold(day, 'sales', record);
    if (record.status === 'VOIDED') {
      day.counts.voided++;
      return;
    }
    if (record.status === 'COMPLETED' && record.kind === 'SALE') day.counts.completed++;
    if (record.status === 'COMPLETED' && record.kind === 'RETURN') day.counts.returns++;
    add(day.sales, 'gross', record.totalGross);
    add(day.sales, 'net', record.totalNet);
    add(day.sales, 'tax', record.totalTax);
    add(day.sales, 'discount', record.totalDiscount);
    for (const line of record.lines) {
      let rate = day.rates.get(line.taxRate);
      if (!rate) day.rates.set(line.taxRate, (rate = {}));
      add(rate, 'net', line.net);
      add(rate, 'tax', line.tax);
      add(rate, 'gross', line.gross);
    }
  }

  payment(record: PaymentFacts, time: string): void {
    const day = this.day('payments', record.businessDate, time);
    if (!day) return;
    this.hold(day, 'payments', record);
    day.counts.payments++;
    const method = day.methods.get(record.method) ?? { count: 0, amount: 0n };
    method.count++;
    method.amount += cents(record.amount);
    day.methods.set(record.method, method);
  }

  movement(record: MovementFacts, time: string): void {
    const day = this.day('cashMovements', record.businessDate, time);
    if (day) this.hold(day, 'cashMovements', record);
  }

  /** A drawer session record: its business date is its opening's, within the period. */
  session(record: SessionFacts): void {
    const day = this.days.get(record.businessDate);
    if (!day) return;
    day.counts.sessions++;
    if (record.status === 'OPEN') day.counts.open++;
    add(day.cash, 'openingFloat', record.openingFloat);
    add(day.cash, 'expected', record.expected);
    add(day.cash, 'counted', record.counted);
    add(day.cash, 'discrepancy', record.discrepancy);
    const counted = record.closedAt?.slice(0, 10) ?? '';
    if (counted > day.lastCount) day.lastCount = counted;
  }

  /**
   * The last calendar date the cash of business date `date` reads, once the walks have ended:
   * the date itself, or the latest count of a session opened on it; null while one of them is
   * open (a later movement of its register, on any date, joins it).
   */
  cashUntil(date: string): string | null {
    const day = this.days.get(date);
    if (!day || day.counts.open > 0) return null;
    return day.lastCount > date ? day.lastCount : date;
  }

  /**
   * The walk of `resource` has read every record up to `time` (stored form): the digests of the
   * days whose range ends by then are computed and their records let go.
   */
  passed(resource: Digested, time: string): void {
    for (const [businessDate, day] of this.days) {
      const until = day.until[resource];
      if (typeof until === 'string' && until <= time) this.seal(businessDate, day, resource);
    }
  }

  private seal(date: string, day: OpenDay, resource: Digested): void {
    if (day.digests[resource]) return;
    const held = day.held[resource].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const { count, checksum } = dayDigest(
      date,
      held.map((h) => h.record),
    );
    day.digests[resource] = { count, checksum };
    day.held[resource] = [];
  }

  /** Every day of the period, in date order, once every walk has ended. */
  entries(): BusinessDayDto[] {
    return [...this.days].map(([businessDate, day]) => {
      for (const resource of ['sales', 'payments', 'cashMovements'] as const) {
        this.seal(businessDate, day, resource);
      }
      const money = (sums: Sums, field: string) => fromCents(sums[field] ?? 0n);
      const rates = [...day.rates].sort(([a], [b]) => Number(cents(a) - cents(b)));
      const methods = [...day.methods].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return {
        businessDate,
        sales: {
          completed: day.counts.completed,
          returns: day.counts.returns,
          voided: day.counts.voided,
          gross: money(day.sales, 'gross'),
          net: money(day.sales, 'net'),
          tax: money(day.sales, 'tax'),
          discount: money(day.sales, 'discount'),
          taxRates: rates.map(([taxRate, sums]) => ({
            taxRate,
            net: money(sums, 'net'),
            tax: money(sums, 'tax'),
            gross: money(sums, 'gross'),
          })),
        },
        payments: {
          count: day.counts.payments,
          amount: fromCents(methods.reduce((sum, [, m]) => sum + m.amount, 0n)),
          methods: methods.map(([method, m]) => ({
            method,
            count: m.count,
            amount: fromCents(m.amount),
          })),
        },
        cash: {
          sessions: day.counts.sessions,
          open: day.counts.open,
          openingFloat: money(day.cash, 'openingFloat'),
          expected: money(day.cash, 'expected'),
          counted: money(day.cash, 'counted'),
          discrepancy: money(day.cash, 'discrepancy'),
        },
        digests: {
          sales: day.digests.sales!,
          payments: day.digests.payments!,
          cashMovements: day.digests.cashMovements!,
        },
      };
    });
  }
}
