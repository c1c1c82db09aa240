import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Redis from 'ioredis';
import { createConnection } from 'mysql2/promise';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ChangeSource } from '../../src/sync/changes/change-source';
import { RedisMarks } from '../../src/sync/changes/dirty-marks';
import { redisLeaseStore } from '../../src/sync/changes/reader-lease';
import type { BreakCause } from '../../src/sync/changes/binlog-follower';
import { DigestCache } from '../../src/sync/digest/digest-cache';
import { ReadinessService } from '../../src/operations/health/readiness.service';
import { MetricsService } from '../../src/operations/metrics/metrics.service';
import { sample } from '../operations/support/management';
import { insertRowAt, insertSale } from '../support/business-factories';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { redis, requires, TEST_REDIS_URL } from '../support/requirements';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';
import { forgeToken } from '../support/tokens';
import { CASH_MOVEMENTS } from '../../src/cash-movements/cash-movements.source';
import { PAYMENTS } from '../../src/payments/payments.source';
import {
  type BinlogServer,
  mariadbServerPrograms,
} from '../operations/support/mariadb-replication';
import { TcpProxy } from '../operations/support/tcp-proxy';
import { startBinlogDatabase } from './support/binlog-database';
import { checksumOf } from './support/checksum-rule';
import { crcOf, crcRowTexts, forgeCrc32 } from './support/crc-forgery';
import {
  columnEdits,
  DATE,
  type Day,
  listedOnDate,
  PERIOD,
  seed,
  SYNCED,
} from './support/edits-behind-the-back';

/**
 * Issue 57: the binary log as the digests' change source, against a real binary log: the spec
 * starts its own mariadbd with `--log-bin` (row format, full images), the service with
 * BINLOG_DATABASE_URL as the account of sql/binlog-account.sql (so its grants are proven to
 * suffice), through a TCP proxy of the test's own (to stall the reader). A repeated digest is
 * answered from the log without reading a fingerprint; every edit behind the service's back
 * gives the new checksum at once; every break falls back to the fingerprints, never to a wrong
 * answer.
 */

jest.setTimeout(180_000);

requires(...mariadbServerPrograms).describe('Digests: the binary log as the change source', () => {
  let binlog: BinlogServer;
  let primary: DataSource;
  let proxy: TcpProxy;
  let dataDir: string;
  let api: TestApp;
  let shop: string;
  let token: string;

  const changes = (on = api) => on.app.get(ChangeSource);
  const follower = () => changes().log!;
  const byLog = (on = api) => changes(on).answered.get('log') ?? 0;
  const breaks = (cause: BreakCause) => follower().breaks.get(cause) ?? 0;
  const following = () => eventually(() => follower().state === 'following');
  const launch = (env: Record<string, string> = {}) =>
    startTestApp(
      { dataDir, appDatabaseUrl: binlog.adminUrl },
      {
        BINLOG_DATABASE_URL: proxied,
        BINLOG_WAIT_MS: '1500',
        DIGEST_CALLS_PER_MINUTE: '100000',
        // The feeds' poll every 10 s: a feed answered sooner was woken by the log.
        FEED_POLL_INTERVAL_MS: '10000',
        ...env,
      },
    );
  const start = async (env: Record<string, string> = {}) => {
    api = await launch(env);
    await following();
  };
  let proxied: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-binlog-'));
    let account: string;
    ({ binlog, primary, account } = await startBinlogDatabase('pos_binlog', dataDir));
    shop = await createShop(primary);
    token = forgeToken({ claims: { sub: 'binlog-digester', shop_code: [shop] } });
    ({ proxy, viaProxy: proxied } = await TcpProxy.inFrontOf(account));
    await start();
  });

  afterAll(async () => {
    await api?.close().catch(() => undefined);
    await primary?.destroy().catch(() => undefined);
    await proxy?.cut().catch(() => undefined);
    await binlog?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const digest = async (route: string, on = api): Promise<Day[]> => {
    const res = await http<{ data: Day[] }>(
      on.baseUrl,
      `/api/v1.0/${route}/digest?ShopCode=${shop}&${PERIOD}`,
      { headers: bearer(token) },
    );
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const day = async (route: string, on = api) =>
    (await digest(route, on)).find((d) => d.date === DATE)!;
  /** DATE's records as the list gives them, and their checksum by the rule. */
  const listed = async (route: string, on = api): Promise<Day> => {
    const records = await listedOnDate(on.baseUrl, route, shop, token);
    return { date: DATE, count: records.length, checksum: checksumOf(records) };
  };
  /** The day's digest, stored and then answered by the log (no fingerprint read). */
  const stamped = async (route: string, on = api): Promise<Day> => {
    await day(route, on);
    const cachedOn = () => on.app.get(DigestCache).outcomes.get('cached') ?? 0;
    const [log, cached] = [byLog(on), cachedOn()];
    const again = await day(route, on);
    expect(byLog(on) - log).toBe(31);
    expect(cachedOn() - cached).toBe(31);
    return again;
  };
  /** `edit` behind the service's back moves `route`'s day, to what the list gives. */
  const movesAtOnce = async (route: string, edit: () => Promise<unknown>, on = api) => {
    const before = await stamped(route, on);
    await edit();
    const after = await day(route, on);
    expect(after.checksum).not.toBe(before.checksum);
    expect(after).toEqual(await listed(route, on));
  };

  it('should answer a repeated digest of each resource from the log, every date without a read', async () => {
    await seed(primary, shop, 5701n);
    for (const { route } of SYNCED) {
      const first = await day(route);
      expect(await stamped(route)).toEqual(first);
      expect(first).toEqual(await listed(route));
    }
  });

  for (const resource of SYNCED) {
    const edits = columnEdits(resource);
    it(`should give the new checksum at once after any of the ${edits.length} columns of ${resource.route} changed behind the service's back`, async () => {
      const id = 5710n + BigInt(SYNCED.indexOf(resource));
      await seed(primary, shop, id);
      for (const edit of edits) {
        await movesAtOnce(resource.route, () =>
          primary.query(`UPDATE ${edit.table} SET ${edit.name} = ? WHERE ${edit.where}`, [
            edit.value,
            String(id),
          ]),
        );
      }
    });
  }

  it("should move every resource's days when the shop's zone changes", async () => {
    const zones = ['America/New_York', 'Asia/Tokyo', 'Europe/Lisbon'];
    for (const [i, { route }] of SYNCED.entries()) {
      await movesAtOnce(route, () =>
        primary.query('UPDATE bo_shops SET time_zone = ? WHERE code = ?', [zones[i], shop]),
      );
    }
  });

  it("should move a payment's day when its sale's business date changes (a derived field)", async () => {
    await seed(primary, shop, 5720n);
    await movesAtOnce('payments', () =>
      primary.query('UPDATE pos_sales SET business_date = ? WHERE id = ?', ['2026-03-09', '5720']),
    );
  });

  it("should move a cash movement's day when an opening float before it starts its session", async () => {
    await seed(primary, shop, 5725n);
    await movesAtOnce('cash-movements', () =>
      insertRowAt(
        primary,
        CASH_MOVEMENTS,
        { id: 5726n, shopCode: shop, at: '2026-03-09 08:00:00.000' },
        { kind: 'OPENING_FLOAT', sale_id: null },
      ),
    );
  });

  it('should move a sale when only its lines are inserted or deleted', async () => {
    await seed(primary, shop, 5730n);
    await movesAtOnce('sales', () =>
      primary.query(
        'INSERT INTO pos_sale_lines (sale_id, line_no, item_code, description, quantity, ' +
          'unit_price, discount, tax_rate, net, tax, gross) ' +
          "VALUES (5730, 3, 'X', 'extra', 1, 1, 0, 0, 1, 0, 1)",
      ),
    );
    await movesAtOnce('sales', () =>
      primary.query('DELETE FROM pos_sale_lines WHERE sale_id = 5730 AND line_no = 1'),
    );
  });

  it("should give the new checksum at once after an edit forged to keep the rows' CRC-32", async () => {
    const id = 5740n;
    const marker = 'FORGE';
    await seed(primary, shop, id);
    await primary.query('UPDATE pos_payments SET reference = ? WHERE id = ?', [
      marker + '0'.repeat(48),
      String(id),
    ]);
    const original = (await crcRowTexts(primary, shop)).get(String(id))!;
    await movesAtOnce('payments', async () => {
      await primary.query('UPDATE pos_payments SET amount = ? WHERE id = ?', ['99.99', '5740']);
      const edited = (await crcRowTexts(primary, shop)).get(String(id))!;
      const at = edited.indexOf(marker) + marker.length;
      const forged = forgeCrc32(edited, at, 48, crcOf(original));
      await primary.query('UPDATE pos_payments SET reference = ? WHERE id = ?', [
        marker + forged.slice(at, at + 48),
        String(id),
      ]);
      expect(crcOf((await crcRowTexts(primary, shop)).get(String(id))!)).toBe(crcOf(original));
    });
  });

  it('should give the right checksum when edits race a digest', async () => {
    await seed(primary, shop, 5750n);
    await stamped('payments');
    const racing = day('payments');
    for (const amount of ['1.01', '2.02', '3.03']) {
      await primary.query('UPDATE pos_payments SET amount = ? WHERE id = 5750', [amount]);
    }
    await racing;
    expect(await day('payments')).toEqual(await listed('payments'));
  });

  it("should resume after the reader's connection is killed, and read what changed meanwhile", async () => {
    await seed(primary, shop, 5760n);
    const before = await stamped('sales');
    const ids = (
      await primary.query<Array<{ id: number }>>(
        "SELECT ID AS id FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'",
      )
    ).map((row) => row.id);
    expect(ids.length).toBe(1);
    const lost = breaks('purged') + breaks('disconnected') + breaks('unreadable');
    await primary.query(`KILL ${ids[0]}`);
    await primary.query("UPDATE pos_sales SET status = 'VOIDED' WHERE id = 5760");
    await eventually(() => follower().state !== 'following', 5000).catch(() => undefined);
    await following();
    // Resumed from its position, not a break: the log answers the other 30 dates, and the edit
    // made while it was away moves its date.
    const log = byLog();
    const after = await day('sales');
    expect(byLog() - log).toBe(30);
    expect(after.checksum).not.toBe(before.checksum);
    expect(after).toEqual(await listed('sales'));
    expect(breaks('purged') + breaks('disconnected') + breaks('unreadable')).toBe(lost);
  });

  it('should answer right while the reader is stalled, within the wait, and follow again after', async () => {
    await seed(primary, shop, 5770n);
    const before = await stamped('payments');
    proxy.freeze();
    await primary.query("UPDATE pos_payments SET reference = 'STALLED' WHERE id = 5770");
    const started = Date.now();
    const after = await day('payments');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(after.checksum).not.toBe(before.checksum);
    expect(after).toEqual(await listed('payments'));
    await proxy.restore();
    await eventually(async () => {
      const log = byLog();
      await day('payments');
      return byLog() > log;
    }, 60_000);
    expect(await day('payments')).toEqual(await listed('payments'));
  });

  it('should break on a statement-format edit, answer by the fingerprints, and trust the log again after', async () => {
    await seed(primary, shop, 5780n);
    const before = await stamped('payments');
    const statements = breaks('statement');
    const admin = await createConnection(binlog.adminUrl);
    try {
      await admin.query("SET SESSION binlog_format = 'STATEMENT'");
      await admin.query("UPDATE pos_payments SET reference = 'STATEMENT' WHERE id = 5780");
    } finally {
      await admin.end();
    }
    await eventually(() => breaks('statement') === statements + 1);
    const after = await day('payments');
    expect(after.checksum).not.toBe(before.checksum);
    expect(after).toEqual(await listed('payments'));
    await stamped('payments');
  });

  it('should break on an ALTER TABLE of a watched table (which rewrites rows without a row event), and answer right', async () => {
    await seed(primary, shop, 5790n);
    await primary.query('UPDATE pos_cash_movements SET amount = 4.44 WHERE id = 5790');
    const before = await stamped('cash-movements');
    const ddl = breaks('ddl');
    // Every amount rounded to one decimal by the server itself: no row event says so.
    await primary.query('ALTER TABLE pos_cash_movements MODIFY amount DECIMAL(15,1) NOT NULL');
    try {
      await eventually(() => breaks('ddl') === ddl + 1);
      const after = await day('cash-movements');
      expect(after.checksum).not.toBe(before.checksum);
      expect(after).toEqual(await listed('cash-movements'));
      await stamped('cash-movements');
    } finally {
      await primary.query('ALTER TABLE pos_cash_movements MODIFY amount DECIMAL(15,2) NOT NULL');
    }
  });

  /**
   * Every binary log file but a new one purged. MariaDB keeps a file until a later one's
   * checkpoint says its transactions are durable in InnoDB: flushed and purged until it is gone.
   */
  const purgeBinaryLogs = () =>
    eventually(async () => {
      await primary.query('FLUSH BINARY LOGS');
      const logs = await primary.query<Array<{ Log_name: string }>>('SHOW BINARY LOGS');
      await primary.query(`PURGE BINARY LOGS TO '${logs[logs.length - 1].Log_name}'`);
      return (await primary.query<unknown[]>('SHOW BINARY LOGS')).length === 1;
    });

  /** The payments feed's cursor once caught up, and a held read from it (Wait=20). */
  const caughtUpCursor = async (on = api): Promise<string> => {
    let cursor = '';
    for (;;) {
      const res = await http<{ nextCursor: string; caughtUp: boolean }>(
        on.baseUrl,
        `/api/v1.0/payments/feed?ShopCode=${shop}&Limit=500` +
          (cursor ? `&Cursor=${encodeURIComponent(cursor)}` : ''),
        { headers: bearer(token) },
      );
      expect(res.status).toBe(200);
      cursor = res.body.nextCursor;
      if (res.body.caughtUp) return cursor;
    }
  };
  const heldRead = (cursor: string, on = api) =>
    http<{ data: Array<{ id: string }> }>(
      on.baseUrl,
      `/api/v1.0/payments/feed?ShopCode=${shop}&Wait=20&Cursor=${encodeURIComponent(cursor)}`,
      { headers: bearer(token) },
    );
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('should answer a waiting feed once the log shows its row committed, not at the next poll', async () => {
    await following();
    const started = Date.now();
    const held = heldRead(await caughtUpCursor());
    await pause(500);
    await seed(primary, shop, 5820n);
    const res = await held;
    expect(res.body.data.map((p) => p.id)).toEqual(['5820']);
    // The poll comes every 10 s: only the log wakes it this soon.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('should read an insert held in flight as soon as it commits, and skip nothing', async () => {
    await following();
    for (const id of [5840n, 5841n]) {
      await insertSale(primary, { id, shopCode: shop, soldAt: `${DATE} 11:00:00.000` });
    }
    const started = Date.now();
    const held = heldRead(await caughtUpCursor());
    await pause(500);
    const inFlight = primary.createQueryRunner();
    await inFlight.startTransaction();
    try {
      // 5840 taken first and held open; 5841 committed after it.
      const at = `${DATE} 11:00:00.000`;
      await insertRowAt(inFlight as unknown as DataSource, PAYMENTS, {
        id: 5840n,
        shopCode: shop,
        at,
      });
      await insertRowAt(primary, PAYMENTS, { id: 5841n, shopCode: shop, at });
      await pause(500);
      await inFlight.commitTransaction();
    } finally {
      await inFlight.release();
    }
    const res = await held;
    expect(res.body.data.map((p) => p.id)).toEqual(['5840', '5841']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("should show the follower's state in readiness's details and in the metrics", async () => {
    await following();
    const ready = await api.app.get(ReadinessService).ready();
    expect(ready.status).toBe(200);
    expect(ready.body.details.binlog).toEqual({
      status: 'up',
      state: expect.stringMatching(/^(following|catching-up)$/),
      secondsBehind: expect.any(Number),
    });
    const metrics = await api.app.get(MetricsService).registry.metrics();
    const following_ = sample(metrics, 'pos_api_binlog_state', { state: 'following' });
    const catching = sample(metrics, 'pos_api_binlog_state', { state: 'catching-up' });
    expect(following_ + catching).toBe(1);
    expect(sample(metrics, 'pos_api_binlog_state', { state: 'broken' })).toBe(0);
    expect(sample(metrics, 'pos_api_binlog_rows_total')).toBeGreaterThan(50);
    expect(sample(metrics, 'pos_api_binlog_breaks_total', { cause: 'statement' })).toBe(1);
    expect(sample(metrics, 'pos_api_binlog_breaks_total', { cause: 'ddl' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      sample(metrics, 'pos_api_digest_dates_asked_total', { answered_by: 'log' }),
    ).toBeGreaterThan(31 * 20);
  });

  it('should answer right after a restart without a saved position (no Redis), the log purged meanwhile', async () => {
    await seed(primary, shop, 5800n);
    const before = await stamped('sales');
    await api.close();
    await primary.query("UPDATE pos_sales SET ticket_number = 'PURGED' WHERE id = 5800");
    await purgeBinaryLogs();
    await start();
    const after = await day('sales');
    expect(after.checksum).not.toBe(before.checksum);
    expect(after).toEqual(await listed('sales'));
    await stamped('sales');
  });

  it('should bound by BINLOG_RECHECK_SECONDS how long an edit the log never carries (sql_log_bin = 0) hides', async () => {
    await api.close();
    await start({ BINLOG_RECHECK_SECONDS: '3' });
    await seed(primary, shop, 5810n);
    const before = await stamped('payments');
    const admin = await createConnection(binlog.adminUrl);
    try {
      await admin.query('SET SESSION sql_log_bin = 0');
      await admin.query("UPDATE pos_payments SET reference = 'UNLOGGED' WHERE id = 5810");
    } finally {
      await admin.end();
    }
    // The trust boundary (docs/sync.md): the log never saw it, the stamp is young.
    const hidden = await day('payments');
    const listedNow = await listed('payments');
    expect(listedNow.checksum).not.toBe(before.checksum);
    expect(hidden).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect(await day('payments')).toEqual(listedNow);
  });

  requires(redis).it(
    'should keep the dirty marks in Redis keys, and fall back to the fingerprints when Redis lost them',
    async () => {
      const prefix = `pos-read-api-test:${randomBytes(6).toString('hex')}:`;
      const keys = new Redis(TEST_REDIS_URL);
      try {
        await api.close();
        await start({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix });
        await seed(primary, shop, 5850n);
        await movesAtOnce('payments', () =>
          primary.query("UPDATE pos_payments SET reference = 'IN-REDIS' WHERE id = 5850"),
        );
        const marks = await keys.keys(`${prefix}changes:*`);
        expect(marks.some((key) => key.includes(':d:pos_payments:'))).toBe(true);
        // An edit is marked, then Redis loses every mark (a restart without persistence): the
        // log can no longer vouch for anything, and the fingerprints find the edit.
        const before = await stamped('payments');
        await primary.query("UPDATE pos_payments SET reference = 'BEFORE-LOSS' WHERE id = 5850");
        expect(await follower().point()).not.toBeNull(); // the barrier: its mark is written
        await keys.del(...(await keys.keys(`${prefix}changes:*`)));
        const log = byLog();
        const after = await day('payments');
        expect(byLog()).toBe(log);
        expect(after.checksum).not.toBe(before.checksum);
        expect(after).toEqual(await listed('payments'));
      } finally {
        const left = await keys.keys(`${prefix}*`);
        if (left.length > 0) await keys.del(...left);
        keys.disconnect();
      }
    },
  );

  requires(redis).it(
    'should resume from its saved position after a restart, and break when the log was purged while it was down',
    async () => {
      const prefix = `pos-read-api-test:${randomBytes(6).toString('hex')}:`;
      const keys = new Redis(TEST_REDIS_URL);
      // A server_id of its own at each start: the saved position is the deployment's.
      const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
      try {
        await api.close();
        await start(env);
        await seed(primary, shop, 5860n);
        const before = await stamped('sales');
        await api.close();
        await primary.query("UPDATE pos_sales SET ticket_number = 'WHILE-DOWN' WHERE id = 5860");
        await start(env);
        // Resumed in its epoch from where it stopped: the log vouches for the 30 other dates,
        // and the edit made while it was down, read on resuming, moves its date.
        const log = byLog();
        const resumed = await day('sales');
        expect(byLog() - log).toBe(30);
        expect(resumed.checksum).not.toBe(before.checksum);
        expect(resumed).toEqual(await listed('sales'));
        const again = await stamped('sales');
        await api.close();
        await primary.query("UPDATE pos_sales SET ticket_number = 'PURGED' WHERE id = 5860");
        await purgeBinaryLogs();
        await start(env);
        await eventually(() => breaks('purged') === 1);
        const after = await day('sales');
        expect(after.checksum).not.toBe(again.checksum);
        expect(after).toEqual(await listed('sales'));
        await following();
        await stamped('sales');
      } finally {
        const left = await keys.keys(`${prefix}*`);
        if (left.length > 0) await keys.del(...left);
        keys.disconnect();
      }
    },
  );

  /** Two instances on one Redis, under a prefix of the test's own. */
  const onRedis = () => ({
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `pos-read-api-test:${randomBytes(6).toString('hex')}:`,
  });
  const removeKeys = async (prefix: string) => {
    const keys = new Redis(TEST_REDIS_URL);
    try {
      const left = await keys.keys(`${prefix}*`);
      if (left.length > 0) await keys.del(...left);
    } finally {
      keys.disconnect();
    }
  };
  /** `on`'s change source follows the log through `reader`: this instance or another. */
  const readsThrough = (on: TestApp, reader: 'this instance' | 'another instance') =>
    eventually(() => {
      const status = changes(on).status();
      return (
        'reader' in status &&
        status.reader === reader &&
        (status.state === 'following' || status.state === 'catching-up')
      );
    });
  /** The replication connections to the binary log server (its dump threads). */
  const readers = async () => {
    const [row] = await primary.query<Array<{ n: string }>>(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE COMMAND = 'Binlog Dump'",
    );
    return Number(row.n);
  };

  /**
   * Two instances on Redis: the reader (returned, started first, with `readerEnv`), and `api`,
   * which follows the log through it.
   */
  const readerAndOther = async (env: Record<string, string>, readerEnv = env) => {
    await api.close();
    await start(readerEnv);
    const reader = api;
    api = await launch(env);
    await readsThrough(api, 'another instance');
    return reader;
  };
  /**
   * After a takeover, sale `id` edited behind the service's back: the successor resumed from the
   * saved position in the same epoch, so the log vouches for the 30 other dates stamped through
   * the old reader (`before`: DATE's), and the edit moves its own.
   */
  const resumedInItsEpoch = async (id: bigint, before: Day) => {
    await primary.query("UPDATE pos_sales SET ticket_number = 'TAKEN-OVER' WHERE id = ?", [id]);
    const log = byLog();
    const after = await day('sales');
    expect(byLog() - log).toBe(30);
    expect(after.checksum).not.toBe(before.checksum);
    expect(after).toEqual(await listed('sales'));
  };

  requires(redis).it(
    'should read the log from one instance of two on Redis; the other answers right through it, and its waiting feed wakes on it',
    async () => {
      const env = onRedis();
      let other: TestApp | undefined;
      try {
        await api.close();
        await start(env);
        const second = (other = await launch(env));
        await readsThrough(api, 'this instance');
        await readsThrough(second, 'another instance');
        expect(changes(second).reading).toBe(false);
        expect(await readers()).toBe(1);
        const ready = await second.app.get(ReadinessService).ready();
        expect(ready.body.details.binlog).toEqual({
          status: 'up',
          state: expect.stringMatching(/^(following|catching-up)$/),
          secondsBehind: expect.any(Number),
          reader: 'another instance',
        });
        // An edit behind the service's back, digested on the instance that does not read: the
        // repeat before it answered from the log (its own count), the new checksum at once.
        await seed(primary, shop, 5870n);
        await movesAtOnce(
          'payments',
          () => primary.query("UPDATE pos_payments SET reference = 'VIA-READER' WHERE id = 5870"),
          second,
        );
        const started = Date.now();
        const held = heldRead(await caughtUpCursor(second), second);
        await pause(500);
        await seed(primary, shop, 5875n);
        expect((await held).body.data.map((p) => p.id)).toEqual(['5875']);
        // The poll comes every 10 s: only the reader's word wakes it this soon.
        expect(Date.now() - started).toBeLessThan(5000);
        expect(await readers()).toBe(1);
      } finally {
        await other?.close();
        await removeKeys(env.REDIS_KEY_PREFIX);
      }
    },
  );

  requires(redis).it(
    "should hand the log to the other instance at once when the reader's instance stops, in the same epoch",
    async () => {
      const env = onRedis();
      const reader = await readerAndOther(env);
      try {
        await seed(primary, shop, 5880n);
        const before = await stamped('sales');
        const stoppedAt = Date.now();
        await reader.close();
        await readsThrough(api, 'this instance');
        // It gave the lease up: taken at once, not when it would have expired.
        expect(Date.now() - stoppedAt).toBeLessThan(3000);
        await eventually(async () => (await readers()) === 1);
        await resumedInItsEpoch(5880n, before);
        await stamped('sales');
      } finally {
        await reader.close().catch(() => undefined);
        await removeKeys(env.REDIS_KEY_PREFIX);
      }
    },
  );

  requires(redis).it(
    "should let the other instance take over within a few seconds when the reader's lease just expires (it lost Redis), in the same epoch",
    async () => {
      const env = { ...onRedis(), BINLOG_LEASE_MS: '2000' };
      const { proxy: toRedis, viaProxy } = await TcpProxy.inFrontOf(TEST_REDIS_URL, 6379);
      const reader = await readerAndOther(env, { ...env, REDIS_URL: viaProxy });
      try {
        await seed(primary, shop, 5890n);
        const before = await stamped('sales');
        // To the other instance the reader is gone (no renewal, no release): a kill -9.
        toRedis.freeze();
        const frozenAt = Date.now();
        await readsThrough(api, 'this instance');
        // The lease's TTL and a third of it, then connecting to the log.
        expect(Date.now() - frozenAt).toBeLessThan(2000 + 667 + 2000);
        expect(changes(reader).reading).toBe(false);
        await eventually(async () => (await readers()) === 1);
        await resumedInItsEpoch(5890n, before);
      } finally {
        await toRedis.restore();
        await reader.close().catch(() => undefined);
        await toRedis.close();
        await removeKeys(env.REDIS_KEY_PREFIX);
      }
    },
  );
});

requires(redis).describe("The binary log's marks and reader's lease in Redis", () => {
  const prefix = `pos-read-api-test:${randomBytes(6).toString('hex')}:`;
  const redisOf = () => new Redis(TEST_REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
  const connections: Redis[] = [];
  const connect = () => {
    const connection = redisOf();
    connections.push(connection);
    return connection;
  };

  afterAll(async () => {
    const keys = new Redis(TEST_REDIS_URL);
    const left = await keys.keys(`${prefix}*`);
    if (left.length > 0) await keys.del(...left);
    keys.disconnect();
    for (const connection of connections) connection.disconnect();
  });

  it('should only ever raise a mark: a replay or a late reader never lowers a position a barrier relies on', async () => {
    const marks = new RedisMarks(connect(), 60);
    const date = { table: 'pos_sales', shop: 'S1', date: DATE };
    const from = { table: 'pos_sales', shop: 'S1', from: DATE };
    await marks.write('e1', [
      { mark: date, position: 500 },
      { mark: from, position: 700 },
    ]);
    await marks.write('e1', [
      { mark: date, position: 460 },
      { mark: from, position: 650 },
    ]);
    expect(await marks.latest('e1', 'pos_sales', 'S1', ['2000-01-01', DATE])).toEqual([-1, 700]);
    await marks.write('e1', [{ mark: date, position: 2 ** 40 + 5 }]);
    expect(await marks.latest('e1', 'pos_sales', 'S1', [DATE], 3)).toEqual([2 ** 40 + 5]);
    // A count of writes above Redis's: it lost some, and the marks cannot vouch.
    expect(await marks.latest('e1', 'pos_sales', 'S1', [DATE], 4)).toBeNull();
  });

  it("should fail the reader's next write when Redis lost the epoch's marks, however many writes come after", async () => {
    const marks = new RedisMarks(connect(), 60);
    const date = { table: 'pos_sales', shop: 'S1', date: DATE };
    for (const position of [10, 11, 12]) await marks.write('e2', [{ mark: date, position }]);
    // Redis restarts empty: the epoch's count starts again below the writes the reader made,
    // and without the check it would climb back past a barrier's count and vouch for lost marks.
    const keys = new Redis(TEST_REDIS_URL);
    try {
      await keys.del(...(await keys.keys(`${prefix}e2:*`)));
    } finally {
      keys.disconnect();
    }
    await expect(marks.write('e2', [{ mark: date, position: 13 }])).rejects.toThrow(
      /lost this epoch's marks/,
    );
    // Another writer of the same epoch only adds to the count: no false alarm.
    const late = new RedisMarks(connect(), 60);
    const fresh = new RedisMarks(connect(), 60);
    await late.write('e3', [{ mark: date, position: 1 }]);
    await late.write('e3', [{ mark: date, position: 2 }]);
    await expect(fresh.write('e3', [{ mark: date, position: 3 }])).resolves.toBeUndefined();
  });

  it("should let only the lease's holder renew or release it", async () => {
    const lease = redisLeaseStore(connect(), 'reader:lease');
    const other = redisLeaseStore(connect(), 'reader:lease');
    expect(await lease.claim('a', 60_000)).toBe(true);
    expect(await other.claim('b', 60_000)).toBe(false);
    expect(await other.renew('b', 60_000)).toBe(false);
    expect(await lease.renew('a', 60_000)).toBe(true);
    await other.release('b');
    expect(await other.claim('b', 60_000)).toBe(false);
    await lease.release('a');
    expect(await other.claim('b', 60_000)).toBe(true);
    const keys = new Redis(TEST_REDIS_URL);
    try {
      expect(await keys.get(`${prefix}reader:lease`)).toBe('b');
      expect(await keys.pttl(`${prefix}reader:lease`)).toBeGreaterThan(50_000);
    } finally {
      keys.disconnect();
    }
  });
});
