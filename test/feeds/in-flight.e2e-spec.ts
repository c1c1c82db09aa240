import fc from 'fast-check';
import { Connection, createConnection, ResultSetHeader } from 'mysql2/promise';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

interface FeedBody {
  data: Array<{ id: string }>;
  nextCursor: string;
  caughtUp: boolean;
}

// Real concurrent transactions on MariaDB: each writer is a raw mysql2 connection of its own,
// holding its transaction open while the service reads the feed. (SQLite has one writer at a
// time: nothing can be in flight below a committed id there.)
describeEachDatabase(
  'Feeds: inserts in flight never make the feed skip a row',
  (ctx) => {
    let api: TestApp;
    const writers: Connection[] = [];
    let shopNo = 0;

    beforeAll(async () => {
      api = await startTestApp(ctx.db);
    });
    afterEach(async () => {
      for (const writer of writers.splice(0)) await writer.end();
    });
    afterAll(async () => {
      await api?.close();
    });

    async function writer(): Promise<Connection> {
      const connection = await createConnection(ctx.db.databaseUrl as string);
      writers.push(connection);
      return connection;
    }

    /** Inserts a sale (id from AUTO_INCREMENT) in the writer's current transaction; its id. */
    async function insert(into: Connection, shop: string, soldAt = '2026-05-10 10:00:00.000') {
      const [result] = await into.query<ResultSetHeader>(
        `INSERT INTO pos_sales (shop_code, register_code, ticket_number, business_date, sold_at,
           currency, total_net, total_tax, total_gross) VALUES (?, 'R1', 'T', ?, ?, 'EUR', 1, 0, 1)`,
        [shop, soldAt.slice(0, 10), soldAt],
      );
      return String(result.insertId);
    }

    /** A fresh shop and a token for it, so each test has a feed of its own. */
    async function feedOfNewShop() {
      const shop = await createShop(ctx.db.db, `INF${++shopNo}`);
      const token = forgeToken({ claims: { sub: `inflight${shopNo}`, shop_code: [shop] } });
      let cursor = '';
      /** One poll: pages until caught up; the ids delivered. */
      const poll = async (limit = 500): Promise<string[]> => {
        const ids: string[] = [];
        for (let i = 0; i < 1000; i++) {
          const res = await http<FeedBody>(
            api.baseUrl,
            `/api/v1.0/sales/feed?ShopCode=${shop}&Limit=${limit}&Cursor=${encodeURIComponent(cursor)}`,
            { headers: bearer(token) },
          );
          if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${res.text}`);
          ids.push(...res.body.data.map((r) => r.id));
          cursor = res.body.nextCursor;
          if (res.body.caughtUp) return ids;
        }
        throw new Error('the feed never caught up');
      };
      return { shop, poll };
    }

    it('should hold back a later id committed first, and deliver both once the earlier one commits', async () => {
      const { shop, poll } = await feedOfNewShop();
      const [first, second] = [await writer(), await writer()];
      await first.beginTransaction();
      const earlier = await insert(first, shop);
      await second.beginTransaction();
      const later = await insert(second, shop);
      await second.commit();
      expect(BigInt(later)).toBeGreaterThan(BigInt(earlier));
      expect(await poll()).toEqual([]);
      await first.commit();
      expect(await poll()).toEqual([earlier, later]);
      expect(await poll()).toEqual([]);
    });

    it('should serve the rows before an insert in flight and stop there', async () => {
      const { shop, poll } = await feedOfNewShop();
      const [first, second] = [await writer(), await writer()];
      const before = await insert(second, shop);
      await first.beginTransaction();
      const pending = await insert(first, shop);
      const after = await insert(second, shop);
      expect(await poll(1)).toEqual([before]);
      await first.commit();
      expect(await poll(1)).toEqual([pending, after]);
    });

    it('should move past the gap a rolled-back insert leaves', async () => {
      const { shop, poll } = await feedOfNewShop();
      const [first, second] = [await writer(), await writer()];
      await first.beginTransaction();
      const rolledBack = await insert(first, shop);
      const committed = await insert(second, shop);
      expect(await poll()).toEqual([]);
      await first.rollback();
      expect(await poll()).toEqual([committed]);
      expect(BigInt(committed)).toBeGreaterThan(BigInt(rolledBack));
    });

    it('should deliver a sale sold three days ago and inserted now', async () => {
      const { shop, poll } = await feedOfNewShop();
      const w = await writer();
      const today = await insert(w, shop, '2026-05-10 10:00:00.000');
      expect(await poll()).toEqual([today]);
      const late = await insert(w, shop, '2026-05-07 09:00:00.000');
      expect(await poll()).toEqual([late]);
    });

    type Step =
      | { kind: 'insert'; writer: number }
      | { kind: 'commit'; writer: number }
      | { kind: 'rollback'; writer: number }
      | { kind: 'poll'; limit: number };
    const WRITERS = 3;
    const on = (kind: 'insert' | 'commit' | 'rollback') =>
      fc.record({ kind: fc.constant(kind), writer: fc.nat(WRITERS - 1) });
    const step: fc.Arbitrary<Step> = fc.oneof(
      { arbitrary: on('insert'), weight: 4 },
      { arbitrary: on('commit'), weight: 3 },
      { arbitrary: on('rollback'), weight: 1 },
      {
        arbitrary: fc.record({
          kind: fc.constant('poll' as const),
          limit: fc.integer({ min: 1, max: 3 }),
        }),
        weight: 3,
      },
    );

    it('should deliver, over any interleaving of inserts, commits, rollbacks and polls, every committed row exactly once', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 24 }), async (steps) => {
          const { shop, poll } = await feedOfNewShop();
          const connections = await Promise.all(Array.from({ length: WRITERS }, () => writer()));
          const open: string[][] = connections.map(() => []);
          const committed: string[] = [];
          const delivered: string[] = [];
          const end = async (i: number, commit: boolean) => {
            if (commit) await connections[i].commit();
            else await connections[i].rollback();
            if (commit) committed.push(...open[i]);
            open[i] = [];
          };
          try {
            for (const s of steps) {
              if (s.kind === 'poll') delivered.push(...(await poll(s.limit)));
              else if (s.kind === 'insert') {
                if (open[s.writer].length === 0) await connections[s.writer].beginTransaction();
                open[s.writer].push(await insert(connections[s.writer], shop));
              } else if (open[s.writer].length > 0) await end(s.writer, s.kind === 'commit');
            }
            for (let i = 0; i < WRITERS; i++) if (open[i].length > 0) await end(i, i % 2 === 0);
            delivered.push(...(await poll()));
          } finally {
            for (const c of connections.splice(0)) await c.end();
            writers.length = 0;
          }
          expect(new Set(delivered).size).toBe(delivered.length);
          expect([...delivered].sort()).toEqual([...committed].sort());
          // In arrival (id) order, each page after the last.
          expect(delivered.map(BigInt)).toEqual(
            [...delivered.map(BigInt)].sort((a, b) => (a < b ? -1 : 1)),
          );
        }),
        { numRuns: 30 },
      );
    });
  },
  { only: ['mysql'] },
);
