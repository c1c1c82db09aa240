import { argon2id, hash, verify } from 'argon2';
import autocannon from 'autocannon';
import { availableParallelism } from 'node:os';
import { combine, drive, type LoadRun, type LoadSpec, type Measured } from './load';
import type { Bench } from './scenarios';

/** The attack: 16 connections, each request from another client address, for names no user has. */
export const FLOOD = { connections: 16 } as const;
/** The data request measured meanwhile: the first page of payments, at a fixed rate. */
const PAYMENTS_PROBE = { rate: 20, connections: 2 } as const;

export interface TokenFloodResult {
  /** The payments page alone, and while the token endpoint is flooded. */
  idle: Measured;
  flooded: Measured;
  /** Answers of the flood, by status (401 refused after verification, 503 shed, 429 locked). */
  statuses: Record<string, number>;
  seconds: number;
  /** Verifications a second the service's hashing slots can do (slots / one verification). */
  hashCapacity: number;
  hashSlots: number;
}

/** Node's default PASSWORD_HASH_CONCURRENCY on this machine (the service runs with its default). */
const defaultSlots = (): number => Math.max(1, availableParallelism() - 1);

/** One argon2id verification at the service's dummy cost (OWASP parameters), median of 9. */
async function verificationSeconds(): Promise<number> {
  const stored = await hash('x', {
    type: argon2id,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    await verify(stored, 'y');
    times.push((performance.now() - started) / 1000);
  }
  return times.sort((a, b) => a - b)[4];
}

/**
 * POST /Token as an attacker floods it: every request carries another X-Forwarded-For address
 * (the service trusts one proxy hop in the benchmark), so the per-address limit never applies,
 * and another unknown name, so no lock stops the hashing. Every answer is counted by status.
 */
function flood(
  baseUrl: string,
  seconds: number,
): Promise<{ statuses: Record<string, number>; seconds: number }> {
  let sequence = 0;
  const statuses: Record<string, number> = {};
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}/api/v1.0/Token`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        connections: FLOOD.connections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            setupRequest: (request) => {
              const n = ++sequence;
              request.headers = {
                ...request.headers,
                'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
              };
              request.body = JSON.stringify({ username: `flood-${n}`, password: 'guess' });
              return request;
            },
          },
        ],
      },
      (error) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        resolve({ statuses, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
      },
    );
    instance.on('response', (_client, statusCode: number) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

function checked(label: string, run: LoadRun): LoadRun {
  if (run.failures.length > 0) throw new Error(`${label}: ${run.failures.join(', ')}`);
  return run;
}

/**
 * p99 of the payments page alone and under the token flood, alternating idle and flooded runs
 * in every round, so both see the same machine; and the flood's own throughput.
 */
export async function measureTokenFlood(bench: Bench): Promise<TokenFloodResult> {
  const seconds = bench.options.durationSeconds;
  const { from, to } = bench.dataset;
  const probe: LoadSpec = {
    url: `${bench.service.baseUrl}/api/v1.0/payments?From=${from}&To=${to}`,
    headers: { authorization: `Bearer ${bench.token}` },
    connections: PAYMENTS_PROBE.connections,
    overallRate: PAYMENTS_PROBE.rate,
    durationSeconds: seconds,
  };
  const idle: LoadRun[] = [];
  const flooded: LoadRun[] = [];
  const statuses: Record<string, number> = {};
  let floodSeconds = 0;
  for (let round = 1; round <= bench.options.rounds; round++) {
    bench.serviceRss.enter('payments while the token endpoint is flooded');
    idle.push(checked('payments idle', await drive(probe)));
    const attack = flood(bench.service.baseUrl, seconds + 2);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    flooded.push(checked('payments flooded', await drive(probe)));
    const done = await attack;
    floodSeconds += done.seconds;
    for (const [status, n] of Object.entries(done.statuses))
      statuses[status] = (statuses[status] ?? 0) + n;
    bench.say(
      `  round ${round} payments p99 idle ${combine(idle.slice(-1)).p99.toFixed(1)} ms, ` +
        `flooded ${combine(flooded.slice(-1)).p99.toFixed(1)} ms; flood answers ${JSON.stringify(done.statuses)}`,
    );
  }
  const slots = defaultSlots();
  return {
    idle: combine(idle),
    flooded: combine(flooded),
    statuses,
    seconds: floodSeconds,
    hashSlots: slots,
    hashCapacity: slots / (await verificationSeconds()),
  };
}
