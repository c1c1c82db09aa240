import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  MirrorFileError,
  NetworkError,
  PosReadClient,
  UnknownShopError,
} from '../../packages/client/src/index';
import { requires } from '../support/requirements';
import { fakeMirrorPerTest, line, NOW, sale, session } from './support/mirror-records';
import {
  inspectState,
  MIRROR_TARGETS,
  mirrorTables,
  storeOf,
  tamper,
} from './support/mirror-targets';
import { writeVersionTwo } from './support/mirror-v2';

/** The list calls of the three resources a feed fills (the drawer sessions' are read each pass). */
const DAY_LISTS = /^\/api\/v1\.0\/(sales|payments|cash-movements)\?/;

/** What a query's rows hold, read behind the mirror's back. */
async function query(into: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const store = await storeOf(into, true);
  try {
    return (await store.all(sql)).map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          k,
          typeof v === 'bigint' || typeof v === 'number' ? String(v) : v,
        ]),
      ),
    );
  } finally {
    await store.close();
  }
}

/** The rows of a copy of addTwelveSales, per table. */
const TWELVE_SALES_ROWS = {
  sales: 12,
  sale_lines: 24,
  payments: 12,
  cash_movements: 4,
  cash_drawer_sessions: 5,
};

/** Schema 3's columns for issue 42's fields, and `extra`, of every row, by table in id order. */
async function newColumns(into: string) {
  return {
    sales: await query(into, 'SELECT sold_at_utc, extra FROM sales ORDER BY id'),
    payments: await query(
      into,
      'SELECT business_date, paid_at_utc, extra FROM payments ORDER BY id',
    ),
    cash_movements: await query(
      into,
      'SELECT business_date, moved_at_utc, extra FROM cash_movements ORDER BY id',
    ),
  };
}

/** What newColumns should read for the API's records: their fields, nothing left in extra. */
function newFields(api: Record<string, Array<Record<string, unknown>>>) {
  return {
    sales: api.sales.map((r) => ({ sold_at_utc: r.soldAtUtc, extra: null })),
    payments: api.payments.map((r) => ({
      business_date: r.businessDate,
      paid_at_utc: r.paidAtUtc,
      extra: null,
    })),
    cash_movements: api['cash-movements'].map((r) => ({
      business_date: r.businessDate,
      moved_at_utc: r.movedAtUtc,
      extra: null,
    })),
  };
}

for (const target of MIRROR_TARGETS) {
  /** mirror_state's key column, quoted (`key` is a reserved word of MySQL). */
  const KEY = target.kind === 'mysql' ? '`key`' : '"key"';

  requires(...target.requires).describe(
    `Client: mirror() logic against the contract, in memory (issues 25, 43) [${target.kind}]`,
    () => {
      const fake = fakeMirrorPerTest('mirror-logic-', target);
      const pass = (options = {}) => fake.pass(options);
      const api_ = () => fake.api.byId();
      /** A pass whose second request to a path holding `path` fails (the network cut). */
      const failingPass = (path: string, limit: number) => {
        let calls = 0;
        const failing: typeof fetch = (input, init) => {
          if ((input as string).includes(path) && ++calls === 2) throw new TypeError('cut');
          return fake.api.fetch(input, init);
        };
        const broken = new PosReadClient({
          baseUrl: 'https://fake',
          username: 'u',
          password: 'p',
          fetch: failing,
          retry: { maxRetries: 0 },
        });
        return broken.mirror({ into: fake.into, limit, now: () => NOW });
      };

      it('should copy every record by the feeds, then find nothing to repair', async () => {
        const summary = await pass();
        expect(await mirrorTables(fake.into)).toEqual(api_());
        expect(summary.rows).toEqual(TWELVE_SALES_ROWS);
        // Every field is a column of its own (generated from the OpenAPI document): none in extra.
        for (const table of [
          'sales',
          'sale_lines',
          'payments',
          'cash_movements',
          'cash_drawer_sessions',
        ]) {
          expect([
            table,
            await query(
              fake.into,
              `SELECT id FROM ${table} WHERE extra IS NOT NULL`.replace(
                'SELECT id FROM sale_lines',
                'SELECT sale_id FROM sale_lines',
              ),
            ),
          ]).toEqual([table, []]);
        }
        const api = api_();
        expect(await newColumns(fake.into)).toEqual(newFields(api));
        expect(
          await query(
            fake.into,
            'SELECT id, status, closed_at, counted, movement_count FROM cash_drawer_sessions ORDER BY id',
          ),
        ).toEqual(
          api['cash-drawer-sessions'].map((x) => ({
            id: x.id,
            status: x.status,
            closed_at: x.closedAt,
            counted: x.counted,
            movement_count: String(x.movementCount as number),
          })),
        );
        expect(summary.daysRepaired).toBe(0);
        expect(summary.daysChecked).toBe(3 * 36);
        expect((await pass({ verifyOnly: true })).differing).toEqual([]);
      });

      it('should take late uploads from the feed and voids, changed lines and deletes from the digests', async () => {
        await pass();
        fake.api.add('sales', sale(40, '2026-03-01T08:00:00'));
        fake.api.records.sales[2].status = 'VOIDED';
        fake.api.records.sales[4].lines = [line(1, '9.99')];
        fake.api.records['cash-movements'].splice(1, 1);
        fake.api.records.payments[0].reference = 'AUTH-1';
        const before = fake.api.paths.length;
        const summary = await pass();
        expect(await mirrorTables(fake.into)).toEqual(api_());
        expect(summary.daysRepaired).toBe(4);
        // Only the four differing days were listed again.
        const lists = fake.api.paths.slice(before).filter((p) => DAY_LISTS.test(p));
        expect(lists).toHaveLength(4);
      });

      it('should find a row changed in the file behind its back, and repair it on the next pass', async () => {
        await pass();
        await tamper(fake.into, "UPDATE sales SET total_gross = '0.01' WHERE id = 3");
        await tamper(fake.into, 'DELETE FROM sale_lines WHERE sale_id = 5 AND line_no = 2');
        const verify = await pass({ verifyOnly: true });
        expect(verify.differing.map((d) => [d.resource, d.date])).toEqual(
          [
            ['sales', '2026-03-13'],
            ['sales', '2026-03-10'],
          ].sort((a, b) => a[1].localeCompare(b[1])),
        );
        expect(await mirrorTables(fake.into)).not.toEqual(api_());
        await pass();
        expect(await mirrorTables(fake.into)).toEqual(api_());
      });

      it('should resume after a failure between pages without losing or doubling a row', async () => {
        await expect(failingPass('/sales/feed', 5)).rejects.toThrow(NetworkError);
        expect((await mirrorTables(fake.into)).sales).toHaveLength(5);
        await pass();
        expect(await mirrorTables(fake.into)).toEqual(api_());
      });

      it('should refuse what is not its own (a text file, the tables of another program), and leave it as it was', async () => {
        if (target.kind === 'sqlite') {
          const text = path.join(fake.dir, 'notes.sqlite');
          writeFileSync(
            text,
            'not a database at all, just text that is long enough to be read\n'.repeat(50),
          );
          const before = readFileSync(text);
          await expect(pass({ into: text })).rejects.toThrow(/not a SQLite database/);
          expect(readFileSync(text)).toEqual(before);
        }
        const erp = await target.create(fake.dir, 'erp');
        try {
          await tamper(erp.into, 'CREATE TABLE invoices (id INTEGER PRIMARY KEY, total TEXT)');
          await tamper(erp.into, "INSERT INTO invoices VALUES (1, '12.50')");
          const contents = async () => {
            const store = await storeOf(erp.into, true);
            try {
              return {
                tables: await store.tables(),
                rows: await store.all('SELECT * FROM invoices'),
              };
            } finally {
              await store.close();
            }
          };
          const before = await contents();
          await expect(pass({ into: erp.into })).rejects.toThrow(MirrorFileError);
          await expect(pass({ into: erp.into })).rejects.toThrow(/not a pos-read mirror.*invoices/);
          expect(await contents()).toEqual(before);
          expect(before.tables).toEqual(['invoices']);
        } finally {
          await erp.drop();
        }
      });

      it('should refuse a newer mirror, another copy and a damaged one', async () => {
        const version = (v: string) =>
          tamper(
            fake.into,
            `UPDATE mirror_state SET value = '${v}' WHERE ${KEY} = 'schema_version'`,
          );
        await pass();
        await version('4');
        await expect(pass()).rejects.toThrow(/newer pos-read \(mirror version 4; this one knows 3/);
        await version('3');
        await expect(pass({ shops: ['S1'] })).rejects.toThrow(
          /mirrors every shop of the token \(recorded in it\); --shop S1 narrows it\. Leave out --shop/,
        );
        const otherService = new PosReadClient({
          baseUrl: 'https://other',
          username: 'u',
          password: 'p',
          fetch: fake.api.fetch,
        });
        await expect(otherService.mirror({ into: fake.into, now: () => NOW })).rejects.toThrow(
          /mirrors https:\/\/fake, not https:\/\/other; nothing was written/,
        );
        await version('0');
        await expect(pass()).rejects.toThrow(/is a damaged mirror \(no schema_version\)/);
        await version('3');
        await tamper(fake.into, 'DROP TABLE cash_drawer_sessions');
        await expect(pass()).rejects.toThrow(/is a damaged mirror \(no cash_drawer_sessions\)/);
        await version('3');
        await tamper(fake.into, 'DROP TABLE sale_lines');
        await expect(pass()).rejects.toThrow(
          /is a damaged mirror \(no sale_lines, cash_drawer_sessions\)/,
        );
      });

      it('should finish a creation killed half-way (MySQL commits each CREATE), and take an empty state table as new', async () => {
        await pass();
        for (const table of ['sale_lines', 'sales', 'payments'])
          await tamper(fake.into, `DROP TABLE ${table}`);
        await tamper(
          fake.into,
          `DELETE FROM mirror_state WHERE ${KEY} <> 'format' AND ${KEY} <> 'baseUrl' AND ${KEY} <> 'shops'`,
        );
        await expect(pass({ verifyOnly: true })).rejects.toThrow(
          /holds no mirror \(its creation did not finish\)/,
        );
        await pass();
        expect(await mirrorTables(fake.into)).toEqual(api_());
        const empty = await target.create(fake.dir, 'empty');
        try {
          await tamper(
            empty.into,
            `CREATE TABLE mirror_state (${KEY} VARCHAR(255) PRIMARY KEY, value TEXT NOT NULL)`,
          );
          await pass({ into: empty.into });
          expect(await mirrorTables(empty.into)).toEqual(api_());
        } finally {
          await empty.drop();
        }
      });

      it('should keep mirroring the shops it recorded, say how a different --shop list differs, and refuse a shop the token lacks', async () => {
        fake.api.shops.push({
          code: 'S2',
          name: 'Two',
          timeZone: 'Europe/Madrid',
          currency: 'EUR',
        });
        fake.api.add('sales', { ...sale(50, '2026-03-12T10:00:00'), shopCode: 'S2' });
        await expect(pass({ shops: ['s1'] })).rejects.toThrow(
          /the token may not read the shop s1: its shops are S1, S2 \(codes are compared exactly/,
        );
        await expect(pass({ shops: ['s1'] })).rejects.toThrow(UnknownShopError);
        await pass({ shops: ['S1'] });
        const before = fake.api.paths.length;
        const verify = await pass({ verifyOnly: true });
        expect(verify.differing).toEqual([]);
        const digests = fake.api.paths.slice(before).filter((p) => p.includes('/digest?'));
        expect(digests.length).toBe(3);
        expect(digests.every((p) => p.includes('ShopCode=S1'))).toBe(true);
        await pass();
        expect((await mirrorTables(fake.into)).sales).toHaveLength(12);
        await expect(pass({ shops: ['S1', 'S2'] })).rejects.toThrow(
          /mirrors the shops S1 \(recorded in it\); --shop adds S2\. Leave out --shop/,
        );
        await expect(pass({ shops: ['S2'] })).rejects.toThrow(
          /mirrors the shops S1 \(recorded in it\); --shop adds S2 and leaves out S1\./,
        );
      });

      it('should read every drawer session on the first pass through the bulk read, those opened before the window too, and resume that read after a failure between periods', async () => {
        // Two periods of the bulk read (at most 1,096 days each): 2022, then 2025 on.
        fake.api.add('cash-drawer-sessions', session(80, '2022-01-03T08:00:00.000'));
        fake.api.add('cash-drawer-sessions', session(81, '2025-11-03T08:00:00.000'));
        fake.api.add('cash-drawer-sessions', session(82, '2026-01-05T08:00:00.000', 'OPEN'));
        await expect(failingPass('/cash-drawer-sessions/bulk?', 2)).rejects.toThrow(NetworkError);
        const state = new Map(await inspectState(fake.into));
        expect(JSON.parse(state.get('history:cash-drawer-sessions:S1') ?? '{}')).toEqual({
          after: '2025-01-03',
        });
        expect(state.has('sessions-whole:S1')).toBe(false);
        expect(
          ((await mirrorTables(fake.into))['cash-drawer-sessions'] as Array<{ id: string }>).map(
            (s) => s.id,
          ),
        ).toEqual(['80']);
        const before = fake.api.paths.length;
        await pass({ limit: 2 });
        const reads = fake.api.paths
          .slice(before)
          .filter((p) => p.includes('/cash-drawer-sessions'));
        // The load goes on after its first period, then nothing else: it covered the window too.
        expect(reads.slice(0, 2)).toEqual([
          expect.stringMatching(/\/cash-drawer-sessions\?ShopCode=S1&From=2025-01-03&Limit=1$/),
          expect.stringMatching(
            /\/cash-drawer-sessions\/bulk\?ShopCode=S1&From=2025-11-03&To=2028-11-03$/,
          ),
        ]);
        expect(
          reads.filter((p) => p.includes('/cash-drawer-sessions?') && !p.includes('Limit=1')),
        ).toEqual([]);
        expect(await mirrorTables(fake.into)).toEqual(api_());
        const after = new Map(await inspectState(fake.into));
        expect([
          after.get('history:cash-drawer-sessions:S1'),
          after.get('sessions-whole:S1'),
        ]).toEqual(['{"done":true}', 'true']);
      });

      it('should keep the drawer sessions current: the window re-read, and an open one before it that is the last of its register; one counted later, one gone, one new, resumed after a failure between pages', async () => {
        // Before the window: one closed, one of R2 still open (the last of its register), and
        // one of R3 left open when R3 opened the next (which stays open too).
        const r = (register: string, s: ReturnType<typeof session>) => ({
          ...s,
          registerCode: register,
        });
        fake.api.add('cash-drawer-sessions', session(81, '2025-11-03T08:00:00.000'));
        fake.api.add(
          'cash-drawer-sessions',
          r('R2', session(82, '2026-01-05T08:00:00.000', 'OPEN')),
        );
        fake.api.add(
          'cash-drawer-sessions',
          r('R3', session(83, '2026-01-06T08:00:00.000', 'OPEN')),
        );
        fake.api.add(
          'cash-drawer-sessions',
          r('R3', session(84, '2026-01-07T08:00:00.000', 'OPEN')),
        );
        await pass({ limit: 2 });
        expect((await mirrorTables(fake.into))['cash-drawer-sessions']).toEqual(
          api_()['cash-drawer-sessions'],
        );
        // The open one of the window is counted, one disappears (its float deleted), a new one
        // opens, and R2's, opened before the window, is counted.
        const sessions = fake.api.records['cash-drawer-sessions'];
        sessions[4] = session(105, '2026-03-14T08:00:00.000');
        sessions.splice(1, 1);
        const r2 = sessions.findIndex((x) => x.id === '82');
        sessions[r2] = r('R2', session(82, '2026-01-05T08:00:00.000'));
        fake.api.add('cash-drawer-sessions', session(106, '2026-03-19T08:00:00.000', 'OPEN'));
        // A session the server does not have, open and the last of R1 before the window.
        const old = session(90, '2026-01-05T08:00:00.000', 'OPEN');
        await tamper(
          fake.into,
          'INSERT INTO cash_drawer_sessions (id, shop_code, register_code, business_date, opened_at, status, currency, opening_float, cash_sales, cash_refunds, cash_in, cash_out, expected, movement_count) ' +
            "VALUES (90, 'S1', 'R1', '2026-01-05', ?, 'OPEN', 'EUR', '1.00', '0.00', '0.00', '0.00', '0.00', '1.00', 1)",
          old.openedAt,
        );
        await expect(failingPass('/cash-drawer-sessions?', 2)).rejects.toThrow(NetworkError);
        // The first page (two sessions) and the walk's cursor were committed together.
        const walk = (await inspectState(fake.into)).find(([key]) => key === 'sessions:S1');
        expect(JSON.parse(walk?.[1] ?? '{}')).toMatchObject({
          from: '2026-02-13',
          to: '2026-03-21',
          after: ['2026-03-12T08:00:00.000', '103'],
        });
        const before = fake.api.paths.length;
        await pass({ limit: 2 });
        // Resumed from that page: its cursor sent, the first page not read again; then the days
        // of the open sessions before the window that are the last of their register.
        const resumed = fake.api.paths
          .slice(before)
          .filter((p) => p.includes('/cash-drawer-sessions?'));
        expect(resumed[0]).toContain('Cursor=2');
        expect(resumed.slice(-2)).toEqual([
          expect.stringContaining('From=2026-01-05&To=2026-01-06'),
          expect.stringContaining('From=2026-01-07&To=2026-01-08'),
        ]);
        expect(resumed.filter((p) => p.includes('From=2026-01-'))).toHaveLength(2);
        expect((await inspectState(fake.into)).map(([key]) => key)).not.toContain('sessions:S1');
        const mirrored = (await mirrorTables(fake.into))['cash-drawer-sessions'];
        expect(mirrored).toEqual(api_()['cash-drawer-sessions']);
        expect(mirrored.find((x) => (x as { id: string }).id === '82')).toMatchObject({
          status: 'CLOSED',
        });
        // verify lists the window's sessions and compares them row by row.
        const verifying = fake.api.paths.length;
        expect((await pass({ verifyOnly: true })).differing).toEqual([]);
        expect(fake.api.paths.slice(verifying).filter((p) => p.includes('cash-drawer'))).toEqual([
          expect.stringContaining('From=2026-02-13&To=2026-03-21'),
        ]);
        await tamper(fake.into, "UPDATE cash_drawer_sessions SET counted = '1.00' WHERE id = 104");
        const verify = await pass({ verifyOnly: true });
        expect(verify.differing).toEqual([
          expect.objectContaining({
            resource: 'cash-drawer-sessions',
            date: '2026-03-13',
            server: expect.objectContaining({ count: 1 }),
            mirror: expect.objectContaining({ count: 1 }),
          }),
        ]);
      });

      it('should upgrade a version 2 mirror (its own DDL) to 3 in place: fields moved out of extra into their columns, the sessions table filled, no row lost, doubled or re-read', async () => {
        const api = api_();
        const cursors = {
          baseUrl: 'https://fake',
          shops: '*',
          'cursor:sales:*': ':12',
          'cursor:payments:*': ':12',
          'cursor:cash-movements:*': ':12',
        };
        await writeVersionTwo(fake.into, api, cursors);
        expect(
          (await query(fake.into, 'SELECT extra FROM payments ORDER BY id')).map((r) =>
            JSON.parse(r.extra as string),
          ),
        ).toEqual(
          api.payments.map((p) => ({ businessDate: p.businessDate, paidAtUtc: p.paidAtUtc })),
        );
        // verify reads it as it is (never writes): the fields from extra, the days the server's.
        expect((await pass({ verifyOnly: true })).differing).toEqual([]);
        expect((await inspectState(fake.into)).find(([k]) => k === 'schema_version')?.[1]).toBe(
          '2',
        );
        // An upgrade killed after one ALTER (MySQL commits each) left a column there, still empty.
        await tamper(fake.into, 'ALTER TABLE sales ADD COLUMN sold_at_utc TEXT');
        const before = fake.api.paths.length;
        const summary = await pass();
        expect(summary).toMatchObject({ records: 0, daysRepaired: 0 });
        expect(fake.api.paths.slice(before).filter((p) => DAY_LISTS.test(p))).toEqual([]);
        expect(summary.rows).toEqual(TWELVE_SALES_ROWS);
        expect((await inspectState(fake.into)).find(([k]) => k === 'schema_version')?.[1]).toBe(
          '3',
        );
        expect(await mirrorTables(fake.into)).toEqual(api);
        expect(await newColumns(fake.into)).toEqual(newFields(api));
        expect((await pass({ verifyOnly: true })).differing).toEqual([]);
        // Opened again, it is a version 3 mirror like a new one: nothing more to do.
        expect(await pass()).toMatchObject({ records: 0, daysRepaired: 0 });
      });

      it('should give a field the API gained a column by regeneration alone: a mirror of this version without it gets it on the next pass, filled from extra', async () => {
        await pass();
        // As a client generated before soldAtUtc left it: no column, the field in extra.
        await tamper(fake.into, 'ALTER TABLE sales DROP COLUMN sold_at_utc');
        for (const s of fake.api.records.sales) {
          const extra = JSON.stringify({ soldAtUtc: s.soldAtUtc });
          await tamper(
            fake.into,
            'UPDATE sales SET extra = ? WHERE id = ?',
            extra,
            BigInt(s.id as string),
          );
        }
        expect((await pass({ verifyOnly: true })).differing).toEqual([]);
        const summary = await pass();
        expect(summary).toMatchObject({ records: 0, daysRepaired: 0 });
        expect(await newColumns(fake.into)).toEqual(newFields(api_()));
        expect(await mirrorTables(fake.into)).toEqual(api_());
      });

      it('should verify by business date when asked (--by business-date), and repair such a day the same way', async () => {
        // A payment taken after midnight counts on the business date before its calendar date.
        const late = fake.api.records.payments.find((p) => p.id === '1')!;
        expect(late.paidAt).toMatch(/^2026-03-11T/);
        late.businessDate = '2026-03-10';
        await pass();
        const byBusinessDate = { by: 'business-date' as const };
        const clean = await pass({ verifyOnly: true, ...byBusinessDate });
        expect(clean.differing).toEqual([]);
        // The digests of three tables, and the drawer sessions' list: four tables of 36 days.
        expect(clean.daysChecked).toBe(4 * 36);
        await tamper(fake.into, "UPDATE payments SET amount = '9.99' WHERE id = 1");
        const before = fake.api.paths.length;
        const verify = await pass({ verifyOnly: true, ...byBusinessDate });
        expect(verify.differing.map((d) => [d.resource, d.date])).toEqual([
          ['payments', '2026-03-10'],
        ]);
        const digests = fake.api.paths.slice(before).filter((p) => p.includes('/digest?'));
        expect(digests.every((p) => /BusinessDateFrom=.*BusinessDateTo=/.test(p))).toBe(true);
        // The calendar day is 2026-03-11.
        expect((await pass({ verifyOnly: true })).differing.map((d) => d.date)).toEqual([
          '2026-03-11',
        ]);
        const repairing = fake.api.paths.length;
        const repair = await pass(byBusinessDate);
        expect(repair.daysRepaired).toBe(1);
        expect(fake.api.paths.slice(repairing).filter((p) => DAY_LISTS.test(p))).toEqual([
          expect.stringContaining('BusinessDateFrom=2026-03-10&BusinessDateTo=2026-03-11'),
        ]);
        expect(await mirrorTables(fake.into)).toEqual(api_());
        expect((await pass({ verifyOnly: true, ...byBusinessDate })).differing).toEqual([]);
        await expect(pass({ by: 'fiscal-date' as 'business-date' })).rejects.toThrow(RangeError);
      });

      it('should check and repair a closed period beyond the window, 92 days a digest request', async () => {
        fake.api.add('sales', sale(60, '2025-12-15T10:00:00'));
        await pass();
        fake.api.records.sales.find((s) => s.id === '60')!.status = 'VOIDED';
        expect((await pass()).daysRepaired).toBe(0);
        const period = { from: '2025-12-01', to: '2026-03-20' };
        const before = fake.api.paths.length;
        const verify = await pass({ verifyOnly: true, period });
        expect(verify.differing.map((d) => [d.resource, d.date])).toEqual([
          ['sales', '2025-12-15'],
        ]);
        expect(verify.daysChecked).toBe(4 * 109);
        const digests = fake.api.paths
          .slice(before)
          .filter((p) => p.startsWith('/api/v1.0/sales/digest'));
        expect(digests).toEqual([
          expect.stringContaining('From=2025-12-01&To=2026-03-03'),
          expect.stringContaining('From=2026-03-03&To=2026-03-20'),
        ]);
        expect((await pass({ period })).daysRepaired).toBe(1);
        expect(await mirrorTables(fake.into)).toEqual(api_());
        await expect(pass({ period: { from: '2026-03-20', to: '2026-03-01' } })).rejects.toThrow(
          RangeError,
        );
      });
    },
  );
}
