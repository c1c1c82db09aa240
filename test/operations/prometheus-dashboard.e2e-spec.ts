import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { applyBackofficeSchema } from '../../src/database/backoffice-schema';
import { buildDataSourceOptions } from '../../src/database/data-source.options';
import { insertCashMovement, insertPayment, insertSale } from '../support/business-factories';
import { createShop, createUser, CreatedUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { program, redis, requires, TEST_REDIS_URL } from '../support/requirements';
import { ServiceProcess, spawnService } from '../support/service-process';
import {
  mariadbServerPrograms,
  Replication,
  startReplication,
} from './support/mariadb-replication';
import { PrometheusServer, startPrometheus } from './support/prometheus-server';

/**
 * The dashboard (deploy/grafana) and the rules (deploy/prometheus) against a real Prometheus
 * (Debian's) scraping the built service, which reads a real MariaDB replica and counts its limits
 * in Redis, while a small load runs: sign-ins (issued, refused, locked), every data route, the
 * report past its limit. Then every panel's query and every rule's expression goes through
 * Prometheus's HTTP API: each parses, each panel's returns data, each rule evaluates without
 * error; and every metric name the docs mention is one Prometheus scraped.
 */

jest.setTimeout(240_000);

const ROOT = path.join(__dirname, '../..');
const DASHBOARD = path.join(ROOT, 'deploy/grafana/pos-read-api.json');
const RULE_FILES = ['recording-rules.yml', 'alerts.yml'].map((f) =>
  path.join(ROOT, 'deploy/prometheus', f),
);
const LOAD_MS = 20_000;

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}

/** Grafana's variables as the dashboard's defaults would set them. */
const asGrafanaSends = (expr: string): string =>
  expr.replaceAll('$__rate_interval', '1m').replaceAll('$job', '.+');

const panels = (): Panel[] =>
  (JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels.filter(
    (p) => p.targets,
  );

/** pos_api_*, process_* and nodejs_* names written in docs/*.md and README.md. */
function documentedMetricNames(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(ROOT, 'docs', f));
  const names = new Set<string>();
  for (const file of [...docs, path.join(ROOT, 'README.md')]) {
    for (const m of readFileSync(file, 'utf8').matchAll(
      /`((?:pos_api|process|nodejs)_[a-z0-9_]*[a-z0-9])\b/g,
    )) {
      names.add(m[1]);
    }
  }
  return [...names].sort();
}

requires(
  program('prometheus', 'apt-get install prometheus'),
  redis,
  ...mariadbServerPrograms,
).describe('Dashboard and rules against a real Prometheus [mariadb primary + replica]', () => {
  let replication: Replication;
  let primary: DataSource;
  let dataDir: string;
  let service: ServiceProcess;
  let prometheus: PrometheusServer;
  let shop: string;
  let user: CreatedUser;

  async function load(): Promise<void> {
    const token = await getToken(service.baseUrl, user.username, user.password);
    const get = (route: string) =>
      http(service.baseUrl, `/api/v1.0/${route}`, { headers: bearer(token) });
    const end = Date.now() + LOAD_MS;
    for (let round = 0; Date.now() < end; round++) {
      // Past 30 a minute these are refused too (rate_limited): every refusal reason seen.
      await http(service.baseUrl, '/api/v1.0/Token', {
        method: 'POST',
        json: { username: user.username, password: user.password },
      });
      await http(service.baseUrl, '/api/v1.0/Token', {
        method: 'POST',
        json: { username: `guesser-${round % 3}`, password: 'wrong' },
      });
      for (const resource of ['sales', 'payments', 'cash-movements']) {
        expect((await get(`${resource}?ShopCode=${shop}`)).status).toBe(200);
        const feed = await get(`${resource}/feed?ShopCode=${shop}`);
        expect(feed.status).toBe(200);
        // Caught up: the first round waits a second on each feed, so the waiting feeds'
        // metrics (their watcher starts with the first Wait) are scraped too.
        if (round === 0) {
          const cursor = encodeURIComponent(feed.body.nextCursor);
          expect((await get(`${resource}/feed?Cursor=${cursor}&Wait=1`)).status).toBe(200);
        }
      }
      await get('shops');
      // 12 a minute: the later calls of the run are throttled (429).
      await get(`TransactionDetailReport?ShopCode=${shop}&From=2026-03-01&To=2026-03-08`);
      await http(service.baseUrl, '/no-such-path');
    }
  }

  beforeAll(async () => {
    replication = await startReplication('pos_prometheus');
    dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-prometheus-'));
    primary = new DataSource(
      buildDataSourceOptions({ databaseUrl: replication.primaryUrl, dataDir }),
    );
    await primary.initialize();
    await applyBackofficeSchema(primary);
    await primary.runMigrations();
    shop = await createShop(primary);
    user = await createUser(primary, { shops: [shop] });
    for (let i = 0; i < 5; i++) {
      const id = BigInt(1000 + i);
      const soldAt = `2026-03-02 10:0${i}:00.000`;
      await insertSale(primary, { id, shopCode: shop, soldAt });
      await insertPayment(primary, {
        id,
        saleId: id,
        shopCode: shop,
        paidAt: soldAt,
        amount: '10.00',
      });
      await insertCashMovement(primary, { id, shopCode: shop, movedAt: soldAt, amount: '5.00' });
    }
    await replication.sync();
    service = await spawnService(
      {
        DATABASE_URL: replication.primaryUrl,
        DATABASE_READ_URLS: replication.replicaUrl,
        REPLICA_CHECK_INTERVAL_MS: '500',
        LOGIN_MAX_FAILURES: '2',
        LOGIN_MIN_RESPONSE_MS: '20',
        DATA_DIR: dataDir,
        // Redis configured, so pos_api_redis_up is scraped (its keys under a prefix of their own).
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: `pos-read-api-test:prometheus:${process.pid}:${Date.now()}:`,
      },
      { built: true },
    );
    prometheus = await startPrometheus(new URL(service.managementUrl).host, RULE_FILES);
    await load();
    // A last scrape and rule evaluation after the load.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  });

  afterAll(async () => {
    await prometheus?.close();
    service?.child.kill('SIGTERM');
    await service?.exited;
    await primary?.destroy().catch(() => undefined);
    await replication?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("should answer every panel's query with data", async () => {
    const answers = [];
    for (const panel of panels()) {
      for (const target of panel.targets ?? []) {
        const answer = await prometheus.query(asGrafanaSends(target.expr));
        answers.push({
          panel: panel.title,
          expr: target.expr,
          status: answer.status,
          error: answer.error,
          series: (answer.data?.result.length ?? 0) > 0,
        });
      }
    }
    expect(answers.length).toBeGreaterThanOrEqual(30);
    expect(answers.filter((a) => a.status !== 'success' || !a.series)).toEqual([]);
  });

  it("should parse every rule's expression and evaluate every rule without error", async () => {
    const rules = await prometheus.rules();
    expect(rules.length).toBe(38);
    const failing = [];
    for (const rule of rules) {
      const answer = await prometheus.query(rule.query);
      if (answer.status !== 'success' || rule.health === 'err') {
        failing.push({ rule: rule.name, error: answer.error ?? rule.lastError });
      }
    }
    expect(failing).toEqual([]);
  });

  it('should hold every metric name the docs mention', async () => {
    const scraped = new Set(await prometheus.metricNames());
    const documented = documentedMetricNames();
    expect(documented.length).toBeGreaterThanOrEqual(25);
    const absent = documented.filter(
      (name) => !['', '_bucket', '_count'].some((suffix) => scraped.has(`${name}${suffix}`)),
    );
    expect(absent).toEqual([]);
  });
});
