import { setBusinessDateIndex } from './bench-database';
import type { ResultRow } from './result-row';
import type { Bench } from './scenarios';
import { busiestShop } from './sync-database';

/** What `--only dayclose` measured (issue 42, item 4). */
export interface DayCloseRun {
  shop: string;
  /** Seconds of each call, one at a time, alternating: the 31-day report, then the close. */
  report: number[];
  close: number[];
  /** Days of the 31-day close with sales: the close answered something. */
  busyDays: number;
  /** The service's resident memory at its peak during a 31-day and a 92-day close. */
  rssShortMb: number;
  rssLongMb: number;
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One call, its body read to the end; its seconds and its text. */
async function timed(bench: Bench, path: string, accept = 'application/json') {
  const started = process.hrtime.bigint();
  const response = await fetch(bench.service.baseUrl + path, {
    headers: { authorization: `Bearer ${bench.token}`, accept, 'accept-encoding': 'identity' },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, text };
}

/**
 * The day close of the busiest shop over 31 days against TransactionDetailReport of the same shop
 * and days (JSON, read to its end), one call at a time, alternating for `rounds` rounds, after one
 * call of each to warm up. Before them, for the service's memory, a 31-day and a 92-day close,
 * each in a phase of its own: the close holds the records of about two days, whatever the period.
 */
export async function measureDayClose(bench: Bench): Promise<DayCloseRun> {
  // The close reads its dates' time ranges first, as the recommended set-up serves them: with
  // sql/recommended-indexes.sql's (shop_code, business_date, sold_at). Without it each range
  // reads every sale of the shop (about 2 s on this dataset).
  await setBusinessDateIndex(bench.options.databaseUrl, true);
  const shop = await busiestShop(bench.options.databaseUrl);
  const from = bench.dataset.from.slice(0, 10);
  const to = addDays(from, 31);
  const report = `/api/v1.0/TransactionDetailReport?ShopCode=${shop}&From=${from}T00:00:00&To=${to}T00:00:00`;
  const close = (days: number) =>
    `/api/v1.0/business-days?ShopCode=${shop}&From=${from}&To=${addDays(from, days)}`;
  const run: DayCloseRun = {
    shop,
    report: [],
    close: [],
    busyDays: 0,
    rssShortMb: 0,
    rssLongMb: 0,
  };
  // Memory first, before the report's: two 31-day closes to reach the close's own plateau, then
  // one more and a 92-day one, each in a phase of its own. Flat: the longer holds no more.
  await timed(bench, close(31));
  await timed(bench, close(31));
  bench.serviceRss.enter('day close, 31 days');
  await timed(bench, close(31));
  run.rssShortMb = bench.serviceRss.peakByPhase.get('day close, 31 days') ?? 0;
  bench.serviceRss.enter('day close, 92 days');
  await timed(bench, close(92));
  run.rssLongMb = bench.serviceRss.peakByPhase.get('day close, 92 days') ?? 0;
  bench.serviceRss.enter('day close against the report, 31 days');
  await timed(bench, report);
  for (let round = 0; round < bench.options.rounds; round++) {
    run.report.push((await timed(bench, report)).seconds);
    const answer = await timed(bench, close(31));
    run.close.push(answer.seconds);
    const days = (JSON.parse(answer.text) as { data: Array<{ sales: { completed: number } }> })
      .data;
    run.busyDays = days.filter((d) => d.sales.completed > 0).length;
    bench.say(
      `  round ${round + 1}: report ${run.report[round].toFixed(2)} s, close ${run.close[round].toFixed(2)} s`,
    );
  }
  return run;
}

/** The rows of the table: the ratio of the medians (target ≤ 1), and memory by the period. */
export function dayCloseRows(
  run: DayCloseRun,
  compared: (
    what: string,
    service: number,
    reference: number,
    show: (v: number) => string,
    target?: { atLeast?: number; atMost?: number },
  ) => ResultRow,
): ResultRow[] {
  const seconds = (v: number) => `${v.toFixed(2)} s`;
  const mb = (v: number) => `${v.toFixed(0)} MB`;
  return [
    compared(
      `day close vs TransactionDetailReport, 31 days of ${run.shop} (${run.busyDays} days with sales), median of ${run.close.length}`,
      median(run.close),
      median(run.report),
      seconds,
      { atMost: 1 },
    ),
    compared(
      'service memory peak, 92-day close vs 31-day close',
      run.rssLongMb,
      run.rssShortMb,
      mb,
      {
        atMost: 1.1,
      },
    ),
  ];
}
