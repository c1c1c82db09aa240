import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../support/service-process';

/** Debian's prometheus (package `prometheus`), started by a spec on a free loopback port. */
export interface PrometheusServer {
  url: string;
  /** An instant query through the HTTP API: the API's answer, parsed. */
  query(expr: string): Promise<PrometheusAnswer>;
  /** Names of every series Prometheus holds. */
  metricNames(): Promise<string[]>;
  /** The rules as Prometheus evaluates them (GET /api/v1/rules). */
  rules(): Promise<Array<{ name: string; query: string; health: string; lastError?: string }>>;
  output(): string;
  close(): Promise<void>;
}

export interface PrometheusAnswer {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: unknown[] };
}

/**
 * Starts Prometheus scraping `target` (host:port of a /metrics) every second, evaluating
 * `ruleFiles` every second, with a temporary data directory; resolves once it is ready.
 */
export async function startPrometheus(
  target: string,
  ruleFiles: string[],
): Promise<PrometheusServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pos-api-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: ${JSON.stringify(ruleFiles)}`,
      'scrape_configs:',
      '  - job_name: pos-read-api',
      `    static_configs: [{ targets: ["${target}"] }]`,
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const api = async <T>(apiPath: string): Promise<T> =>
    (await (await fetch(`${url}${apiPath}`)).json()) as T;
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`prometheus did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    query: (expr) => api(`/api/v1/query?query=${encodeURIComponent(expr)}`),
    metricNames: async () => (await api<{ data: string[] }>('/api/v1/label/__name__/values')).data,
    rules: async () => {
      const answer = await api<{
        data: {
          groups: Array<{
            rules: Array<{ name: string; query: string; health: string; lastError?: string }>;
          }>;
        };
      }>('/api/v1/rules');
      return answer.data.groups.flatMap((group) => group.rules);
    },
    output: () => output,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
