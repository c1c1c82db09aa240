import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type KeysetPosition, LIST, type PageQuery } from '../sync/list/list.mode';
import { Wall } from '../wall/wall';
import type { CallerClaims } from '../common/caller-claims';
import type { RawQuery } from '../common/query/query-parameters';
import type { Resource } from '../catalogue/resource';
import type { BusinessDaysDto } from './business-day.dto';
import { addDays, midnight } from '../common/query/filter-parameters';
import {
  DayClose,
  type Digested,
  type MovementFacts,
  type PaymentFacts,
  type SaleFacts,
  type SessionFacts,
} from './day-close';
import { type BusinessDaysQuery, parseBusinessDaysQuery } from './business-days.query';
import { ChangeSource } from '../sync/changes/change-source';
import { DigestCache } from '../sync/digest/digest-cache';
import {
  closeKey,
  type CloseTables,
  closeTables,
  closeText,
  parseClose,
  runsOf,
  vouched,
} from './day-close-cache';

/**
 * The resources the close reads, each the catalogue's declaration (src/app.catalogue.ts): their
 * sources, their mappers and their digests' fields, never copies of them.
 */
export interface DayCloseResources {
  sales: Resource<{ id: string }, SaleFacts>;
  payments: Resource<{ id: string }, PaymentFacts>;
  cashMovements: Resource<{ id: string }, MovementFacts>;
  sessions: Resource<{ id: string }, SessionFacts>;
}

export const DAY_CLOSE_RESOURCES = Symbol('DAY_CLOSE_RESOURCES');

/** Rows per keyset read of a walk (the report reads 250 sales a chunk). */
const WALK_CHUNK = 1_000;

/**
 * Rows mapped, counted and hashed between two turns of the event loop: the close's CPU never
 * holds the loop that serves the lists for longer than a slice (decision 54.1).
 */
const SLICE = 100;

/**
 * GET /business-days: the close of one shop over a period of business dates. Four walks through
 * the caller's wall in two lanes (the sales; the sessions, then payments, then cash movements),
 * each the list's keyset read in chunks (the same SQL, derived columns and attachments as the
 * pages): the sales, payments and cash movements of the period's business dates, read by
 * business date over the time range their records cover (from the data, as a list by business
 * date reads it), each mapped by its list's mapper and counted on its `businessDate`; and the
 * drawer sessions opened in the period. Memory: a chunk a lane, and the digested records of
 * the days a walk has not passed the range of yet.
 */
@Injectable()
export class BusinessDaysService {
  /** Where the marks of the close's inputs are (null: the log cannot vouch for a close). */
  private readonly tables: CloseTables | null;
  /** Days answered since start-up: from the cache, or walked (the specs read it). */
  readonly outcomes = new Map<'cached' | 'computed', number>();

  constructor(
    private readonly wall: Wall,
    @Inject(DAY_CLOSE_RESOURCES) private readonly resources: DayCloseResources,
    private readonly cache: DigestCache,
    private readonly changes: ChangeSource,
  ) {
    const { sales, payments, cashMovements, sessions } = resources;
    // The digested three are followed by the change source (ResourcesModule watches every
    // digest's source); the sessions are read from the cash movements' table.
    const followed = [sales.source, payments.source, cashMovements.source];
    this.tables = closeTables([...followed, sessions.source], followed);
  }

  /**
   * The close of the query's shop and dates. With the digests' cache on and the binary log
   * configured (BINLOG_DATABASE_URL), each day's entry is kept, stamped with the log's position
   * read before the walks, and a repeat answers a day from it while the log vouches that none of
   * its inputs changed since (docs/sync.md, "The day close's cache"); only the other days are
   * walked, in runs of consecutive dates. Otherwise every day is walked, as without a cache.
   */
  async close(caller: CallerClaims, raw: RawQuery): Promise<BusinessDaysDto> {
    const query = parseBusinessDaysQuery(raw);
    const { version, dates, shopCode } = query;
    if (!this.wall.covers(caller, shopCode) || dates.length === 0) return { version, data: [] };
    if (!this.tables || !this.cache.enabled || this.changes.status().state === 'off') {
      this.count('computed', dates.length);
      return { version, data: (await this.walk(caller, query, dates)).entries() };
    }
    const keys = dates.map((date) => closeKey(this.cache.release, version, shopCode, date));
    const stored = (await this.cache.get(keys)).map((text, i) => parseClose(text, dates[i]));
    const { now, held } = await vouched(this.changes, shopCode, this.tables, dates, stored);
    const data = dates.map((_, i) => (held[i] ? stored[i]!.day : null));
    const store: Array<readonly [string, string]> = [];
    const at = new Map(dates.map((date, i) => [date, i]));
    for (const run of runsOf(dates, held)) {
      const close = await this.walk(caller, query, run);
      for (const day of close.entries()) {
        const i = at.get(day.businessDate)!;
        data[i] = day;
        const until = close.cashUntil(day.businessDate);
        if (now && until) store.push([keys[i], closeText(now, until, day)]);
      }
    }
    this.cache.set(store);
    const cached = held.filter(Boolean).length;
    this.count('cached', cached);
    this.count('computed', dates.length - cached);
    return { version, data: data.map((day) => day!) };
  }

  private count(outcome: 'cached' | 'computed', days: number): void {
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + days);
  }

  /** The close of consecutive `dates` of the query's shop, walked as without a cache. */
  private async walk(
    caller: CallerClaims,
    { version, shopCode }: BusinessDaysQuery,
    dates: readonly string[],
  ): Promise<DayClose> {
    const { sales, payments, cashMovements, sessions } = this.resources;
    const close = new DayClose(dates, {
      sales: sales.digest!.fields[version],
      payments: payments.digest!.fields[version],
      cashMovements: cashMovements.digest!.fields[version],
    });
    const period = { from: dates[0], to: addDays(dates[dates.length - 1], 1) };
    // Each digested walk: the time ranges of its records by business date first (the days'
    // ends), then the cover of them, the list's keyset read by business date.
    const walk = async <T extends { id: string }>(
      resource: Resource<{ id: string }, T>,
      digested: Digested,
      each: (record: T, time: string) => void,
    ) => {
      const { days, cover } = await this.wall.businessDateRanges(
        caller,
        resource.source,
        shopCode,
        period,
      );
      close.bound(digested, days);
      if (!cover) return;
      await walkRecords(
        this.wall,
        caller,
        resource,
        { shopCode, ...cover, businessDates: period },
        (records, times) => {
          records.forEach((record, i) => each(record, times[i]));
          close.passed(digested, times[times.length - 1]);
        },
      );
    };
    // Two lanes side by side: while one waits on the database the other maps and hashes its
    // chunk. Two statements at a time at most, so the closes at once (DIGEST_MAX_IN_FLIGHT) leave
    // the rest of the pool to the pages. Each walk feeds its own figures and digests.
    const opened = { from: midnight(period.from), to: midnight(period.to), businessDates: null };
    await Promise.all([
      walk(sales, 'sales', (r, time) => close.sale(r, time)),
      (async () => {
        await walkRecords(this.wall, caller, sessions, { shopCode, ...opened }, (records) =>
          records.forEach((r) => close.session(r)),
        );
        await walk(payments, 'payments', (r, time) => close.payment(r, time));
        await walk(cashMovements, 'cashMovements', (r, time) => close.movement(r, time));
      })(),
    ]);
    return close;
  }
}

/**
 * Every record of `resource` of one shop in `bounds` (stored forms; by business date when it
 * gives them), in (time, id) order, chunk after chunk, mapped by the resource's mapper; `each`
 * gets a slice of a chunk's records and their rows' times, one slice per turn of the loop.
 */
async function walkRecords<T extends { id: string }>(
  wall: Wall,
  caller: CallerClaims,
  resource: Resource<{ id: string }, T>,
  bounds: Omit<PageQuery, 'after' | 'limit'> & { shopCode: string },
  each: (records: T[], times: string[]) => void,
): Promise<void> {
  const { source } = resource;
  let after: KeysetPosition | null = null;
  do {
    const page: { rows: Array<{ id: string }>; next: KeysetPosition | null } = await wall.read(
      caller,
      LIST,
      source,
      { ...bounds, after, limit: WALK_CHUNK },
    );
    for (let start = 0; start < page.rows.length; start += SLICE) {
      if (start > 0) await nextTurn();
      const rows = page.rows.slice(start, start + SLICE);
      each(
        rows.map((row) => resource.toRecord(row)),
        rows.map((row) => String((row as unknown as Record<string, unknown>)[source.time])),
      );
    }
    after = page.next;
  } while (after);
}
