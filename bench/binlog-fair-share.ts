import { setBusinessDateIndex } from './bench-database';
import type { Dataset } from './bench-dataset';
import type { BenchOptions } from './bench-options';
import { fairShareRows, measureFairShare } from './fair-share';
import { compared, textTable } from './report';
import type { Target } from './targets';

/** What `--binlog` gives the fair share: its database, dataset, services and users. */
export interface FairShareBesideLog {
  options: BenchOptions;
  /** The bench's own MariaDB, its binary log on (bench/binlog.ts). */
  databaseUrl: string;
  dataset: Dataset;
  /** BINLOG_DATABASE_URL of the service that follows the log. */
  binlogUrl: string;
  /** Under it, each service's own Redis prefix (its limits, cache and lease apart). */
  redisPrefix: string;
  /** A service on the database with these settings besides (stopped by the caller). */
  start(env: Record<string, string>): Promise<Target>;
  /** Waits until a service follows the log. */
  following(service: Target): Promise<void>;
  forge(sub: string, shops: string[]): string;
  say(line: string): void;
}

/**
 * Issue 54's fair share (bench/fair-share.ts) as the project recommends deploying: the service
 * following the binary log, so a repeated day close or digest of days the log vouches unchanged
 * is answered from the cache (decision 57.5.2); beside it, on the same data in the same run, a
 * service without the log, as `--only fairshare` runs. Both with the defaults, limits in Redis;
 * their rounds in turn.
 */
export async function fairShareBesideLog(input: FairShareBesideLog): Promise<void> {
  const { say } = input;
  say("The expensive reads' fair share, the log followed (service 1) and not (service 2):");
  // Before the services: the log carries the DDL, and the follower starts past it.
  await setBusinessDateIndex(input.databaseUrl, true);
  const logged = await input.start({
    REDIS_KEY_PREFIX: `${input.redisPrefix}fair-log:`,
    BINLOG_DATABASE_URL: input.binlogUrl,
  });
  await input.following(logged);
  const plain = await input.start({ REDIS_KEY_PREFIX: `${input.redisPrefix}fair-plain:` });
  const bench = {
    options: { ...input.options, databaseUrl: input.databaseUrl },
    dataset: input.dataset,
    forge: input.forge,
    say,
  };
  const [withLog, withoutLog] = await measureFairShare(bench, [logged, plain]);
  say(
    textTable([
      ...fairShareRows(withLog, compared, 'log followed: '),
      ...fairShareRows(withoutLog, compared, 'without the log: '),
    ]),
  );
}
