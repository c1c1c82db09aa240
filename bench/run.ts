import 'reflect-metadata';
import { CursorCodec } from '../src/sync/paging/cursor-codec';
import { CursorSecret } from '../src/common/cursor-secret';
import { prepareDatabase } from './bench-database';
import { measureCompression } from './compression';
import { compressionRows } from './compression-report';
import type { Dataset } from './bench-dataset';
import { BENCH_USAGE, type BenchOptions, parseBenchArgs } from './bench-options';
import { CpuAccount, databaseServerPid, describeMachine, loadAverages } from './machine';
import { feedTable, measureFeed } from './feed';
import { runMirror } from './mirror';
import { runBinlog } from './binlog';
import {
  writeFeedSection,
  writePerformanceDoc,
  writeSyncSection,
  writeTracingSection,
} from './performance-doc';
import { RssSampler, type Started } from './processes';
import { missingFromDockerfile, PRODUCTION_RUNTIME } from './runtime';
import { resultRows, textTable } from './report';
import { measure } from './measure';
import { type Bench, storedBounds } from './scenarios';
import {
  makeSecrets,
  type SharedSecrets,
  startBaseline,
  startService,
  type Target,
} from './targets';
import { measureSync, syncTable } from './sync';
import { BENCH_KEY_ID, tokenFor } from './sync-waiters';
import { BENCH_REDIS_URL } from './digest-cache';
import { measureTracing, tracingTable } from './tracing';

const say = (line: string): void => console.log(line);

async function signIn(service: Started, dataset: Dataset): Promise<string> {
  const response = await fetch(`${service.baseUrl}/api/v1.0/Token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: dataset.user.username, password: dataset.user.password }),
  });
  const body = (await response.json()) as { token?: string };
  if (response.status !== 200 || !body.token) {
    throw new Error(`POST /Token answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.token;
}

/** The deep page's cursor, as the service would have issued it after that row. */
function deepCursor(secrets: SharedSecrets, dataset: Dataset): string {
  const codec = new CursorCodec(new CursorSecret(Buffer.from(secrets.cursorSecret)));
  const { from, to } = storedBounds(dataset);
  return codec.encode({
    resource: 'sales',
    subject: dataset.user.id,
    shopCode: null,
    from,
    to,
    afterTime: dataset.deep.time,
    afterId: dataset.deep.id,
  });
}

async function run(options: BenchOptions): Promise<void> {
  // Its own database server and dataset: nothing of the main run's.
  if (options.binlog) return runBinlog(options, makeSecrets(), say);
  const loadBefore = loadAverages();
  // The database first: describeMachine connects to it, and a first run has to create it.
  const dataset = await prepareDatabase(options.databaseUrl, options.dataset, say);
  const machine = await describeMachine(options.databaseUrl);
  say(
    `Dataset: ${dataset.sales.toLocaleString('en-US')} sales, ${dataset.lines.toLocaleString('en-US')} lines, ` +
      `${dataset.payments.toLocaleString('en-US')} payments, ` +
      `${dataset.cashMovements.toLocaleString('en-US')} cash movements in ${dataset.shopCodes.length} shops`,
  );
  if (options.prepareOnly) return;
  const secrets = makeSecrets();
  if (options.feed) return runFeed(options, dataset, secrets, machine);
  if (options.sync) return runSync(options, dataset, secrets, machine);
  if (options.mirror) return runMirror(options, dataset, secrets, say);
  const runtime = options.plainRuntime ? {} : PRODUCTION_RUNTIME;
  if (options.tracing || options.quick) {
    // Its own services, before the main run's start (CI's --quick runs it end to end too).
    say(
      `Tracing off and on, ${options.rounds} round(s) of interleaved ${options.durationSeconds} s slices:`,
    );
    const table = tracingTable(
      await measureTracing({
        ...options,
        secrets,
        runtime,
        dataset,
        signIn: (service) => signIn(service, dataset),
        say,
      }),
    );
    say(table);
    if (options.tracing && options.writeReport) {
      say(
        `Wrote ${writeTracingSection(`${table}\n\n\`${options.command}\`, ${machine.cpus} cores.`)}`,
      );
    }
    if (options.tracing) return;
  }
  const notInDockerfile = options.plainRuntime ? [] : missingFromDockerfile();
  const settings = Object.entries(runtime).map(([name, value]) => `${name}=${value}`);
  say(`The service runs with ${settings.length > 0 ? settings.join(' ') : 'no runtime settings'}.`);
  if (notInDockerfile.length > 0) {
    say(`WARNING: the Dockerfile does not set ${notInDockerfile.join(', ')}: production differs.`);
  }
  const cpu = new CpuAccount();
  cpu.track(process.pid);
  cpu.track(databaseServerPid());
  const service = await startService(options.databaseUrl, secrets, runtime);
  let baseline: Target | undefined;
  try {
    baseline = await startBaseline(options.databaseUrl, secrets);
    cpu.track(service.pid);
    cpu.track(baseline.pid);
    const bench: Bench = {
      options,
      dataset,
      token: await signIn(service, dataset),
      deepCursor: deepCursor(secrets, dataset),
      service,
      baseline,
      serviceRss: new RssSampler(service.pid),
      baselineRss: new RssSampler(baseline.pid),
      say,
      forge: (sub, shops) => tokenFor({ secrets }, sub, shops),
      startWith: (env) =>
        startService(options.databaseUrl, secrets, runtime, [], {
          JWT_KEY_ID: BENCH_KEY_ID,
          ...env,
        }),
    };
    if (options.compressionOnly) {
      say(textTable(compressionRows(await measureCompression(bench))));
      return;
    }
    const results = await measure(bench, options.only);
    if (options.quick) {
      // CI: the feed end to end on the quick dataset (the timings are not checked).
      say('Feed against list, one shop:');
      const feedRows = await measureFeed({
        service,
        token: bench.token,
        dataset,
        databaseUrl: options.databaseUrl,
        secrets,
        repeats: 3,
        say,
      });
      say(feedTable(feedRows));
    }
    if (options.quick) await runSync(options, dataset, secrets, machine);
    const cpuUse = cpu.read();
    const loadAfter = loadAverages();
    const rows = resultRows(results);
    say('');
    say(textTable(rows));
    say('');
    if (results.compression) say(textTable(compressionRows(results.compression)));
    say('');
    say(
      `CPU: ${cpuUse.busyCores.toFixed(2)} of ${machine.cpus} cores busy on average, ` +
        `${cpuUse.othersCores.toFixed(2)} of them by processes other than the benchmark's; ` +
        `load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after.`,
    );
    say(
      `Service resident memory, peak per scenario: ${[...results.rssByPhase]
        .map(([phase, mb]) => `${phase} ${mb.toFixed(0)} MB`)
        .join('; ')}.`,
    );
    if (options.writeReport) {
      const file = writePerformanceDoc({
        options,
        machine,
        dataset,
        results,
        rows,
        cpuUse,
        loadBefore,
        loadAfter,
        runtime: settings,
        notInDockerfile,
      });
      say(`Wrote ${file}`);
    }
    if (rows.some((r) => r.verdict === 'FAIL')) say('Some targets were missed (FAIL above).');
  } finally {
    await baseline?.stop();
    await service.stop();
  }
}

/** `--feed`: the service alone, the feed against the list, without and with the index. */
async function runFeed(
  options: BenchOptions,
  dataset: Dataset,
  secrets: SharedSecrets,
  machine: Awaited<ReturnType<typeof describeMachine>>,
): Promise<void> {
  const runtime = options.plainRuntime ? {} : PRODUCTION_RUNTIME;
  const service = await startService(options.databaseUrl, secrets, runtime);
  try {
    say(`Feed against list, shop ${dataset.walkShop}, requests one at a time:`);
    const rows = await measureFeed({
      service,
      token: await signIn(service, dataset),
      dataset,
      databaseUrl: options.databaseUrl,
      secrets,
      repeats: options.quick ? 3 : 21,
      say,
    });
    const table = feedTable(rows);
    say(table);
    if (options.writeReport) {
      const file = writeFeedSection(
        `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`${options.command}\` ` +
          `on ${machine.cpus} cores (${machine.cpuModel}), ${machine.database}, buffer pool ` +
          `${machine.bufferPoolMb} MB: ${dataset.sales.toLocaleString('en-US')} sales in ` +
          `${dataset.shopCodes.length} shops, shop ${dataset.walkShop}, load average ` +
          `${loadAverages()[0].toFixed(1)} at the end. Page scenarios: the median of ` +
          `${options.quick ? 3 : 21} requests each, one at a time, feed and list asked in turn, ` +
          'after 2 of each to warm up; catch-up: every page in turn, summed. Ratios are feed ÷ ' +
          'list (lower is better).\n\n' +
          table,
      );
      say(`Wrote ${file}`);
    }
  } finally {
    await service.stop();
  }
}

/** `--sync` (and the end of `--quick`): the digest and the waiting feeds, on a service of its own. */
async function runSync(
  options: BenchOptions,
  dataset: Dataset,
  secrets: SharedSecrets,
  machine: Awaited<ReturnType<typeof describeMachine>>,
): Promise<void> {
  const runtime = options.plainRuntime ? {} : PRODUCTION_RUNTIME;
  // The digests keep their checksums in Redis, as in production, under a prefix of this run's.
  const redisPrefix = `bench-${process.pid}:`;
  const start = (env: Record<string, string> = {}) =>
    startService(options.databaseUrl, secrets, runtime, [], {
      JWT_KEY_ID: BENCH_KEY_ID,
      REDIS_URL: BENCH_REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      ...env,
    });
  const service = await start();
  try {
    say('Digest and waiting feeds:');
    const rows = await measureSync({
      service,
      managementUrl: service.managementUrl ?? '',
      token: await signIn(service, dataset),
      dataset,
      databaseUrl: options.databaseUrl,
      secrets,
      quick: options.quick,
      say,
      freshService: options.quick ? undefined : () => start(),
      startWith: options.quick ? undefined : start,
      digestsOnly: options.digests,
      digestCacheOnly: options.digestCache,
      redisPrefix,
    });
    const table = syncTable(rows);
    say(table);
    if (options.writeReport && options.sync && !options.digests) {
      const file = writeSyncSection(
        `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`${options.command}\` ` +
          `on ${machine.cpus} cores (${machine.cpuModel}), ${machine.database}: ` +
          `${dataset.sales.toLocaleString('en-US')} sales in ${dataset.shopCodes.length} shops. ` +
          'Digest and walk: the median of 3, after one digest to warm up. Statements: what the ' +
          "service's own metrics count (feed reads and arrival polls), over 10 s while the " +
          'waiters wait; CPU and memory of the service process.\n\n' +
          table,
      );
      say(`Wrote ${file}`);
    }
    if (rows.some((r) => r.verdict === 'FAIL')) say('Some sync targets were missed (FAIL above).');
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const command = parseBenchArgs(process.argv.slice(2), process.env);
  if (command.help) {
    say(BENCH_USAGE);
    return;
  }
  await run(command);
}

// The process ends when the run does, failed or not: a connection or a child left open by a
// failed scenario must not keep it (and CI with it) waiting.
main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
