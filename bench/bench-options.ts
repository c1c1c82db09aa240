import { parseArgs } from 'node:util';
import { FEED_DATASET, FULL_DATASET, QUICK_DATASET, type DatasetPlan } from './bench-dataset';

/** The scenario groups of a run, in the order they run; `--only` picks some of them. */
export const SCENARIO_GROUPS = [
  'pages',
  'walk',
  'prefetch',
  'token',
  'saturation',
  'surge',
  'flood',
  'report',
  'dayclose',
  'fairshare',
  'opendrawer',
  'compression',
] as const;
export type ScenarioGroup = (typeof SCENARIO_GROUPS)[number];

export const BENCH_USAGE = `Usage: npm run bench [-- options]

Seeds a MariaDB/MySQL database with the project's generator (unless already seeded), starts the
production build of the service and a raw node:http + mysql2 baseline that runs the same SQL, and
drives both in turn with autocannon. Writes docs/performance.md (full run only).

Environment: BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/posapi_bench, or
posapi_bench_quick with --quick, posapi_bench_feed with --feed).

Options:
  --quick              small dataset, a few seconds per scenario, output to stdout only (CI);
                       ends with the feed scenarios on that dataset
  --feed               only the feed scenarios (GET /sales/feed against GET /sales, without and
                       with the index of sql/recommended-indexes.sql) on ~1.1 million sales in
                       100 shops (seeded once, a few minutes); writes its part of
                       docs/performance.md
  --sync               only the sync scenarios of issue 24 on the main dataset: the 92-day digest
                       of the busiest shop against walking the same days through the list,
                       commit-to-delivery of a consumer waiting on the feed (Wait), statements a
                       second, memory and CPU with 10 and 1,000 idle waiters; writes its part of
                       docs/performance.md (--quick runs them too, on the small dataset)
  --digests            only the digest scenarios of --sync (the 92-day digest against the walk,
                       one user's burst of digests against another user's pages, with the
                       budget and without it), table to stdout
  --digest-cache       only the digest cache of --digests (the busiest shop's 92-day digest cold,
                       repeated with nothing changed, repeated after one sale changed), table to
                       stdout
  --tracing            only the cost of tracing (issue 28): the first sales page of 100 and of 500
                       with tracing off, on with every request sampled, on with none sampled,
                       the three services side by side, driven in interleaved slices (rounds 24,
                       duration 2 s unless given); writes its part of docs/performance.md
  --mirror            only the client's mirror (issue 25): the first mirror of the walk shop's
                       year against pos-read export of it, then the requests a minute of an
                       idle follow with Wait (60 s) against the feeds polled every second
                       without Wait (60 s); on the full dataset, table to stdout
  --binlog             only the change source's targets (issue 57): a MariaDB of its own with the
                       binary log on (started in a temporary directory, ~144,000 sales seeded
                       in it), the 92-day digest and day close cold and repeated with the log
                       followed, the rows the server read, 10 users' repeated digests against
                       another user's pages, commit to a waiting feed, a burst of 5,000 row
                       changes a second; the digest and feed without the log beside them; then
                       the fair share (below) with the log followed and without it, rounds in
                       turn; tables to stdout (with --only fairshare: the fair share alone)
  --connections <n>    concurrent connections of the throughput scenarios (default 8)
  --duration <s>       seconds of each measured run (default 10; 2 with --quick; 2 with --tracing)
  --rounds <n>         alternating rounds service/baseline per scenario (default 3; 1 with --quick;
                       24 with --tracing)
  --plain-runtime      start the servers without the production runtime settings
                       (NODE_OPTIONS, GLIBC_TUNABLES of bench/runtime.ts), to see what they do
  --prepare-only       make the database ready (schema, migrations, seed, user) and stop
  --no-write           do not write docs/performance.md
  --compression-only   only the compression scenarios (bench/compression.ts), table to stdout
  --only <groups>      only these scenario groups, comma-separated, table to stdout: pages, walk,
                       prefetch, token, saturation, surge, flood, report, dayclose (the
                       31-day close of the busiest shop against its 31-day report), fairshare
                       (user B's digests and list while user A runs 92-day closes and ten
                       digests at once, on a service with its limits in Redis), opendrawer
                       (a 1-day close with a drawer never counted against without), compression
  -h, --help           show this help`;

export interface BenchOptions {
  quick: boolean;
  databaseUrl: string;
  dataset: DatasetPlan;
  connections: number;
  durationSeconds: number;
  rounds: number;
  prepareOnly: boolean;
  plainRuntime: boolean;
  writeReport: boolean;
  compressionOnly: boolean;
  /** Only these scenario groups (`--only`); empty: all of them. */
  only: ScenarioGroup[];
  /** Only the feed scenarios (on FEED_DATASET unless quick). */
  feed: boolean;
  /** Only the sync scenarios (digest, waiting feeds). */
  sync: boolean;
  /** Only the digest scenarios of the sync group (`--digests`). */
  digests: boolean;
  /** Only the digest cache's scenario of the sync group (`--digest-cache`). */
  digestCache: boolean;
  /** Only the tracing cost (bench/tracing.ts). */
  tracing: boolean;
  /** Only the mirror against export (bench/mirror.ts). */
  mirror: boolean;
  /** Only the change source's targets (bench/binlog.ts). */
  binlog: boolean;
  /** The command line, as docs/performance.md shows it. */
  command: string;
}

export type BenchCommand = { help: true } | ({ help: false } & BenchOptions);

function positive(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}, got '${raw}'`);
  }
  return value;
}

export function parseBenchArgs(argv: readonly string[], env: NodeJS.ProcessEnv): BenchCommand {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      quick: { type: 'boolean' },
      connections: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      'prepare-only': { type: 'boolean' },
      'plain-runtime': { type: 'boolean' },
      'no-write': { type: 'boolean' },
      'compression-only': { type: 'boolean' },
      feed: { type: 'boolean' },
      sync: { type: 'boolean' },
      digests: { type: 'boolean' },
      'digest-cache': { type: 'boolean' },
      tracing: { type: 'boolean' },
      mirror: { type: 'boolean' },
      binlog: { type: 'boolean' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true };
  const only = (values.only ?? '').split(',').filter((group) => group !== '');
  const unknown = only.filter((group) => !(SCENARIO_GROUPS as readonly string[]).includes(group));
  if (unknown.length > 0) {
    throw new Error(`--only takes ${SCENARIO_GROUPS.join(', ')}; not ${unknown.join(', ')}`);
  }
  if (values.binlog === true && only.some((group) => group !== 'fairshare')) {
    throw new Error('--binlog takes --only fairshare alone');
  }
  const quick = values.quick === true;
  const feed = values.feed === true;
  const database = quick ? 'posapi_bench_quick' : feed ? 'posapi_bench_feed' : 'posapi_bench';
  return {
    help: false,
    quick,
    databaseUrl: env.BENCH_DATABASE_URL || `mysql://root@127.0.0.1:3306/${database}`,
    dataset: quick ? QUICK_DATASET : feed ? FEED_DATASET : FULL_DATASET,
    connections: positive(values.connections, '--connections', 8, 1000),
    // --tracing: many short interleaved slices (bench/tracing.ts), not a few long runs.
    durationSeconds: positive(
      values.duration,
      '--duration',
      quick ? 2 : values.tracing === true ? 2 : 10,
      3600,
    ),
    rounds: positive(values.rounds, '--rounds', quick ? 1 : values.tracing === true ? 24 : 3, 100),
    prepareOnly: values['prepare-only'] === true,
    plainRuntime: values['plain-runtime'] === true,
    writeReport:
      !quick &&
      only.length === 0 &&
      values['no-write'] !== true &&
      values.digests !== true &&
      values['digest-cache'] !== true &&
      values['compression-only'] !== true,
    only: only as ScenarioGroup[],
    compressionOnly: values['compression-only'] === true,
    feed,
    sync: values.sync === true || values.digests === true || values['digest-cache'] === true,
    digests: values.digests === true || values['digest-cache'] === true,
    digestCache: values['digest-cache'] === true,
    tracing: values.tracing === true,
    mirror: values.mirror === true,
    binlog: values.binlog === true,
    command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
  };
}
