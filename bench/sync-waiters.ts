import { sign } from 'jsonwebtoken';
import { withLowS } from '../src/auth/keys/low-s';
import { MAX_FEED_WAIT_SECONDS } from '../src/config/limits';
import { QUIET_SHOP } from './sync-database';
import type { Dataset } from './bench-dataset';
import { processJiffies } from './machine';
import { residentMb, type Started } from './processes';
import type { SharedSecrets } from './targets';

/** The key id the benchmark's service signs with (startService's JWT_KEY_ID for --sync). */
export const BENCH_KEY_ID = 'bench-sync';

export interface SyncInput {
  service: Started;
  /** The service's management port (metrics). */
  managementUrl: string;
  token: string;
  dataset: Dataset;
  databaseUrl: string;
  secrets: SharedSecrets;
  quick: boolean;
  say(line: string): void;
  /** Starts another service like `service` (the full run measures 1,000 waiters on it too). */
  freshService?: () => Promise<Started & { managementUrl?: string }>;
  /** Starts another service like `service` with these settings (the digest scenarios' baselines). */
  startWith?: (env: Record<string, string>) => Promise<Started>;
  /** The REDIS_KEY_PREFIX of `service` (its digest cache is in Redis). */
  redisPrefix: string;
  /** Only the digest scenarios (`--digests`). */
  digestsOnly?: boolean;
  /** Only the digest cache's scenario (`--digest-cache`). */
  digestCacheOnly?: boolean;
}

/** A token of user `sub` for `shops`, signed as the service signs (the benchmark holds the key). */
export function tokenFor(input: Pick<SyncInput, 'secrets'>, sub: string, shops: string[]): string {
  const now = Math.floor(Date.now() / 1000);
  // The service accepts ES256 signatures in their low-s form only, as it issues them.
  const token = sign(
    {
      sub,
      unique_name: sub,
      role: ['ApiUser'],
      shop_code: shops,
      jti: `${sub}-${now}`,
      iat: now,
      nbf: now,
      exp: now + 3600,
      iss: input.secrets.issuer,
      aud: input.secrets.audience,
    },
    input.secrets.privateKeyPem,
    { algorithm: 'ES256', keyid: BENCH_KEY_ID },
  );
  return withLowS(token);
}

/** The service's statements to the database, from its own metrics: feed reads and polls. */
export async function serviceStatements(input: SyncInput): Promise<number> {
  const text = await (await fetch(`${input.managementUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (/^pos_api_feed_polls_total\{/.test(line) || /^pos_api_db_reads_total\{/.test(line)) {
      total += Number(line.split(' ').pop());
    }
  }
  return total;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The requests the service holds by Wait now, from its own gauge (pos_api_feed_waiters). */
async function heldWaiters(input: SyncInput): Promise<number> {
  const text = await (await fetch(`${input.managementUrl}/metrics`)).text();
  return [...text.matchAll(/^pos_api_feed_waiters\{[^}]*\} (\S+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

/**
 * Waits until the service holds all `count` waiters (its gauge), so the window that follows
 * measures waiting only: on a loaded machine the waiters' first reads (one each, through the
 * pool) can take several seconds, and counted in the window they would pass for polls. False when
 * they are not all held by `timeoutMs`.
 */
async function allHeld(input: SyncInput, count: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while ((await heldWaiters(input)) < count) {
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
  return true;
}

export interface IdleWaiters {
  waiters: number;
  /** Statements a second the service sent while they waited. */
  queriesPerSecond: number;
  /** Resident memory added by the waiters (MB), and the service's CPU while they waited. */
  rssAddedMb: number;
  cpuPercentOfCore: number;
  /** Seconds from the first request to all of them held. */
  arrivalSeconds: number;
}

/**
 * `count` requests waiting on the quiet shop, 10 per user (the per-user cap), and what
 * the service costs while they wait: statements a second (its metrics), memory, CPU.
 */
export async function idleWaiters(input: SyncInput, count: number): Promise<IdleWaiters> {
  // Every waiter is held first (allHeld), then the window runs while they all wait; they are
  // answered when their Wait (from their arrival) runs out. The longest Wait in the quick run too:
  // with 10 s, 1,000 waiters had 6 s to be held, which a loaded CI machine missed (6.2 s).
  const wait = MAX_FEED_WAIT_SECONDS;
  const rssBefore = residentMb(input.service.pid) ?? 0;
  const held: Array<Promise<unknown>> = [];
  for (let i = 0; i < count; i++) {
    const token = tokenFor(input, `bench-waiter-${Math.floor(i / 10)}`, [QUIET_SHOP]);
    held.push(
      fetch(`${input.service.baseUrl}/api/v1.0/sales/feed?ShopCode=${QUIET_SHOP}&Wait=${wait}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.text()),
    );
  }
  const arrived = Date.now();
  const ready = await allHeld(input, count, (wait - 4) * 1000);
  const arrivalSeconds = (Date.now() - arrived) / 1000;
  await sleep(500);
  // The window ends a second before the first waiter's Wait can: at most 10 s (3 s quick).
  const windowMs = Math.min(
    input.quick ? 3_000 : 10_000,
    wait * 1000 - (Date.now() - arrived) - 1_000,
  );
  if (!ready || windowMs < 2_000) {
    await Promise.allSettled(held);
    throw new Error(
      `the ${count} waiters were not all held ${arrivalSeconds.toFixed(1)} s after they were ` +
        'sent (the machine is too loaded for this scenario): not measured',
    );
  }
  const [statements, jiffies, started] = [
    await serviceStatements(input),
    processJiffies(input.service.pid),
    Date.now(),
  ];
  await sleep(windowMs);
  const seconds = (Date.now() - started) / 1000;
  const result = {
    waiters: count,
    queriesPerSecond: ((await serviceStatements(input)) - statements) / seconds,
    rssAddedMb: (residentMb(input.service.pid) ?? 0) - rssBefore,
    // Linux counts 100 jiffies a second.
    cpuPercentOfCore: (processJiffies(input.service.pid) - jiffies) / seconds,
    arrivalSeconds,
  };
  await Promise.all(held);
  return result;
}
