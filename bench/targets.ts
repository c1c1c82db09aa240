import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { CPU_USAGE_PATH } from './baseline/baseline-server';
import { freePort, REPO_ROOT, type Started, startNode } from './processes';

/** A server of the benchmark, and its CPU time so far (process.cpuUsage(), user + system). */
export interface Target extends Started {
  cpuSeconds(): Promise<number>;
  /** The service's management port (its /metrics); absent for the baseline. */
  managementUrl?: string;
  /** The service's Prometheus text (its management port); the baseline has none. */
  metrics?: () => Promise<string>;
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return text;
}

/** prom-client's process_cpu_seconds_total: process.cpuUsage() of the service, user + system. */
export function cpuSecondsOfMetrics(metrics: string): number {
  const match = /^process_cpu_seconds_total(?:\{[^}]*\})? ([0-9.e+-]+)$/m.exec(metrics);
  if (!match) throw new Error('the service /metrics has no process_cpu_seconds_total');
  return Number(match[1]);
}

/** What the service and the baseline share: the signing key pair and the cursor secret. */
export interface SharedSecrets {
  privateKeyPem: string;
  publicKeyPem: string;
  cursorSecret: string;
  issuer: string;
  audience: string;
}

export function makeSecrets(): SharedSecrets {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKeyPem: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: pair.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    cursorSecret: randomBytes(32).toString('base64url'),
    issuer: 'pos-read-api',
    audience: 'pos-read-api/v1.0',
  };
}

/**
 * The production build (`nest build` output) as it is deployed: APP_ENV=production, the runtime
 * settings of its container (runtime.ts), its defaults (pool of 10, query timeout), logging at
 * warn so log lines are not what is measured, the token route's per-address limit lifted
 * (the benchmark signs in from one address), and one trusted proxy hop (the token flood sends
 * each request from another X-Forwarded-For address).
 */
export async function startService(
  databaseUrl: string,
  secrets: SharedSecrets,
  runtime: Readonly<Record<string, string>>,
  nodeArgs: string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<Target> {
  const port = await freePort();
  const managementPort = await freePort();
  const started = await startNode(
    'service',
    path.join(REPO_ROOT, 'dist/src/main.js'),
    {
      NODE_ENV: 'production',
      APP_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JWT_PRIVATE_KEY: secrets.privateKeyPem,
      JWT_ISSUER: secrets.issuer,
      JWT_AUDIENCE: secrets.audience,
      CURSOR_SECRET: secrets.cursorSecret,
      LOG_LEVEL: 'warn',
      // Its /metrics gives the CPU per page (process_cpu_seconds_total, from process.cpuUsage()).
      MANAGEMENT_PORT: String(managementPort),
      MANAGEMENT_HOST: '127.0.0.1',
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
      // One user signs in on 8 connections at once: each attempt in flight holds one of the
      // name's reserved guesses, so the default budget of 5 would refuse some with 429.
      LOGIN_MAX_FAILURES: '1000',
      LOGIN_MAX_FAILURES_PER_NAME: '1000',
      // The benchmark is the one proxy in front: the token flood's X-Forwarded-For addresses count.
      TRUST_PROXY: '1',
      ...runtime,
      ...env,
    },
    port,
    nodeArgs,
  );
  const managementUrl = `http://127.0.0.1:${managementPort}`;
  const metricsUrl = `${managementUrl}/metrics`;
  return {
    ...started,
    managementUrl,
    cpuSeconds: async () => cpuSecondsOfMetrics(await fetchText(metricsUrl)),
    metrics: () => fetchText(metricsUrl),
  };
}

/**
 * The raw node:http + mysql2 baseline (bench/baseline), configured like the service but run as
 * plain `node`, V8's defaults: its fastest, so the comparison is the strict one. (With the
 * service's 512 MB heap limit its small heap is collected far more often: ~13% of its CPU.)
 */
export async function startBaseline(
  databaseUrl: string,
  secrets: SharedSecrets,
  nodeArgs: string[] = [],
): Promise<Target> {
  const port = await freePort();
  const started = await startNode(
    'baseline',
    path.join(REPO_ROOT, 'dist-bench/bench/baseline/baseline.main.js'),
    {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JWT_PUBLIC_KEY: secrets.publicKeyPem,
      JWT_ISSUER: secrets.issuer,
      JWT_AUDIENCE: secrets.audience,
      CURSOR_SECRET: secrets.cursorSecret,
      DATABASE_POOL_SIZE: '10',
    },
    port,
    nodeArgs,
  );
  const usageUrl = started.baseUrl + CPU_USAGE_PATH;
  return {
    ...started,
    cpuSeconds: async () => {
      const usage = JSON.parse(await fetchText(usageUrl)) as { user: number; system: number };
      return (usage.user + usage.system) / 1e6;
    },
  };
}
