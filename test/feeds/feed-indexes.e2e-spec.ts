import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SYNCED_RESOURCES, TABLE } from '../cursor-endpoints/resource-tables';
import { describeEachDatabase } from '../support/describe-databases';
import { http } from '../support/http';
import { capturedLogLines } from '../support/log-capture';
import { OpsApp, startOpsApp } from '../operations/support/management';

/** The tables of the resources with a feed, in the catalogue's order. */
const FEED_TABLES = SYNCED_RESOURCES.map((resource) => TABLE[resource][0]);

// The back-office schema is given; sql/recommended-indexes.sql is what its DBA may add for the
// feeds. The service says which feed tables lack it, and works either way.
describeEachDatabase(
  'Feeds: the recommended indexes',
  (ctx) => {
    let ops: OpsApp | undefined;
    afterEach(async () => {
      await ops?.close();
      ops = undefined;
    });

    const readiness = async () => {
      const res = await http(ops!.managementUrl, '/health/ready');
      expect(res.status).toBe(200);
      return res.body.details.feedIndexes;
    };

    it('should warn at start-up and name in the readiness details each feed table without (shop_code, id)', async () => {
      const before = capturedLogLines().length;
      ops = await startOpsApp(ctx.db);
      expect(await readiness()).toEqual({ status: 'up', missing: FEED_TABLES });
      const warnings = capturedLogLines()
        .slice(before)
        .filter((line) => line.includes('FeedIndexes'));
      expect(warnings.join('\n')).toContain('sql/recommended-indexes.sql');
    });

    it('should find nothing missing once sql/recommended-indexes.sql has run, and warn no more', async () => {
      const script = readFileSync(
        path.join(__dirname, '../../sql/recommended-indexes.sql'),
        'utf8',
      );
      const statements = script
        .split('\n')
        .filter((line) => !line.startsWith('--'))
        .join('\n')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      // The feeds' (shop_code, id), and the business dates' (shop_code, business_date, sold_at).
      expect(statements.map((s) => /^CREATE INDEX (\w+)/.exec(s)?.[1])).toEqual([
        ...FEED_TABLES.map((table) => `ix_${table}_shop_id`),
        'ix_pos_sales_shop_business_date',
      ]);
      expect(FEED_TABLES.slice(0, 3)).toEqual(['pos_sales', 'pos_payments', 'pos_cash_movements']);
      for (const statement of statements) await ctx.db.db.query(statement);
      try {
        const before = capturedLogLines().length;
        ops = await startOpsApp(ctx.db);
        expect(await readiness()).toEqual({ status: 'up', missing: [] });
        expect(
          capturedLogLines()
            .slice(before)
            .filter((l) => l.includes('FeedIndexes')),
        ).toEqual([]);
      } finally {
        // The schema as the other test expects it, whichever runs first (jest --randomize).
        for (const statement of statements) {
          const [, index, table] = /^CREATE INDEX (\w+) ON (\w+)/.exec(statement) ?? [];
          await ctx.db.db.query(`DROP INDEX IF EXISTS ${index} ON ${table}`);
        }
      }
    });
  },
  { only: ['mysql'] },
);
