import { setBusinessDateIndex, setFeedIndex } from './bench-database';
import type { ScenarioGroup } from './bench-options';
import { measureCompression } from './compression';
import { measureDayClose } from './day-close';
import { BENCH_REDIS_URL } from './digest-cache';
import { measureFairShare } from './fair-share';
import { measureOpenDrawer } from './open-drawer';
import type { Results } from './report';
import {
  type Bench,
  checkSameAnswers,
  measurePages,
  measureReport,
  measureToken,
  measureTokenSaturation,
  measureWalks,
  pageScenarios,
  warmUp,
} from './scenarios';
import { FLOOD, measureTokenFlood } from './token-flood';
import { measurePrefetchWalks } from './prefetch-walk';
import { measureSignInSurge, SURGE } from './sign-in-surge';

/** Every scenario group of `only` (all of them when it is empty), one after the other. */
export async function measure(bench: Bench, only: readonly ScenarioGroup[]): Promise<Results> {
  const runs = (group: ScenarioGroup) => only.length === 0 || only.includes(group);
  const { say } = bench;
  const results: Results = { rssPeakMb: 0, rssByPhase: new Map(), baselineRssPeakMb: 0 };
  if (runs('pages')) {
    // The feed page reads as the recommended set-up does, with sql/recommended-indexes.sql's
    // (shop_code, id); the lists' plans do not use it.
    await setFeedIndex(bench.options.databaseUrl, true);
    const scenarios = pageScenarios(bench);
    say('Checking that both servers give the same answers…');
    await checkSameAnswers(bench, scenarios);
    say('Warming up…');
    await warmUp(bench, scenarios);
    say(
      `Pages at ${bench.options.connections} connections, ${bench.options.durationSeconds} s a run:`,
    );
    results.pages = await measurePages(bench, scenarios);
  }
  if (runs('walk')) {
    say('Full-year walk:');
    results.walks = await measureWalks(bench);
  }
  if (runs('prefetch')) {
    say('The client package walking the year over 50 Mbit/s with gzip, without and with prefetch:');
    results.prefetch = await measurePrefetchWalks(bench);
  }
  if (runs('token')) {
    say('Token endpoint:');
    results.token = await measureToken(bench);
  }
  if (runs('saturation')) {
    say('Data latency while the token endpoint is saturated:');
    results.saturation = await measureTokenSaturation(bench);
  }
  if (runs('surge')) {
    say(`Data page while ${SURGE.connections} connections sign in with the right password:`);
    results.surge = await measureSignInSurge(bench);
  }
  if (runs('flood')) {
    say(`Payments page while ${FLOOD.connections} connections flood the token endpoint:`);
    results.flood = await measureTokenFlood(bench);
  }
  if (runs('report')) {
    say('TransactionDetailReport, 31 days of every shop:');
    results.reports = await measureReport(bench);
  }
  if (runs('dayclose')) {
    say('The day close of the busiest shop against its TransactionDetailReport, 31 days:');
    results.dayClose = await measureDayClose(bench);
  }
  if (runs('fairshare')) {
    say("The expensive reads' fair share: user B's digests and list while user A loads:");
    await setBusinessDateIndex(bench.options.databaseUrl, true);
    const service = await bench.startWith({
      REDIS_URL: BENCH_REDIS_URL,
      REDIS_KEY_PREFIX: `bench-fair-${process.pid}-${Date.now()}:`,
    });
    try {
      [results.fairShare] = await measureFairShare(bench, [service]);
    } finally {
      await service.stop();
    }
  }
  if (runs('opendrawer')) {
    say('A drawer never counted: the 1-day close with it against without:');
    results.openDrawer = await measureOpenDrawer(bench);
  }
  if (runs('compression')) {
    say('Compression: sales page and full-year walk, with and without Accept-Encoding: gzip:');
    results.compression = await measureCompression(bench);
  }
  bench.serviceRss.stop();
  bench.baselineRss.stop();
  return {
    ...results,
    rssPeakMb: bench.serviceRss.peak,
    rssByPhase: bench.serviceRss.peakByPhase,
    baselineRssPeakMb: bench.baselineRss.peak,
  };
}
