import { sign } from 'jsonwebtoken';
import { withLowS } from '../src/auth/keys/low-s';
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
}

/** A token of user `sub` for `shops`, signed as the service signs (the benchmark holds the key). */
export function tokenFor(input: SyncInput, sub: string, shops: string[]): string {
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

export interface IdleWaiters {
  waiters: number;
  /** Statements a second the service sent while they waited. */
  queriesPerSecond: number;
  /** Resident memory added by the waiters (MB), and the service's CPU while they waited. */
  rssAddedMb: number;
  cpuPercentOfCore: number;
}

/**
 * `count` requests waiting on the quiet shop, 10 per user (the per-user cap), and what
 * the service costs while they wait: statements a second (its metrics), memory, CPU.
 */
export async function idleWaiters(input: SyncInput, count: number): Promise<IdleWaiters> {
  const windowMs = input.quick ? 3_000 : 10_000;
  // Long enough to outlast the measured window: answered when it runs out.
  const wait = windowMs / 1000 + 5;
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
  await sleep(3_000);
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
  };
  await Promise.all(held);
  return result;
}
