import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SYNCED_RESOURCES, TABLE } from '../cursor-endpoints/resource-tables';
import { describeEachDatabase } from '../support/describe-databases';
import { http } from '../support/http';
import { capturedLogLines } from '../support/log-capture';
import { OpsApp, startOpsApp } from './support/management';

// The feeds' (shop_code, id), one a resource with a feed, and the business dates' (shop_code,
// business_date, sold_at).
const RECOMMENDED = [
  ...SYNCED_RESOURCES.map((resource) => `ix_${TABLE[resource][0]}_shop_id`),
  'ix_pos_sales_shop_business_date',
];

/** The statements of sql/recommended-indexes.sql. */
function recommendedStatements(): string[] {
  return readFileSync(path.join(__dirname, '../../sql/recommended-indexes.sql'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

// The back-office schema is given; sql/recommended-indexes.sql is what its DBA may add for the
// feeds and the reads by business date. The service says which are missing, and works either way.
describeEachDatabase(
  'The recommended indexes (sql/recommended-indexes.sql)',
  (ctx) => {
    let ops: OpsApp | undefined;
    afterEach(async () => {
      await ops?.close();
      ops = undefined;
    });

    /** The schema as the other tests expect it, whichever runs first (jest --randomize). */
    const dropAll = async (statements: string[]) => {
      for (const statement of statements) {
        const [, index, table] = /^CREATE INDEX (\w+) ON (\w+)/.exec(statement) ?? [];
        await ctx.db.db.query(`DROP INDEX IF EXISTS ${index} ON ${table}`);
      }
    };

    const readiness = async () => {
      const res = await http(ops!.managementUrl, '/health/ready');
      expect(res.status).toBe(200);
      return res.body.details.recommendedIndexes;
    };

    it('should warn at start-up and name in the readiness details each recommended index missing', async () => {
      const before = capturedLogLines().length;
      ops = await startOpsApp(ctx.db);
      expect(await readiness()).toEqual({ status: 'up', missing: RECOMMENDED });
      const warnings = capturedLogLines()
        .slice(before)
        .filter((line) => line.includes('"context":"RecommendedIndexes"'));
      expect(warnings.join('\n')).toContain('sql/recommended-indexes.sql');
      expect(warnings.join('\n')).toContain('pos_sales (shop_code, business_date, sold_at)');
    });

    it('should name the business dates index alone when only the feeds have theirs', async () => {
      const feeds = recommendedStatements().filter((s) => !s.includes('business_date'));
      for (const statement of feeds) await ctx.db.db.query(statement);
      try {
        ops = await startOpsApp(ctx.db);
        expect(await readiness()).toEqual({
          status: 'up',
          missing: ['ix_pos_sales_shop_business_date'],
        });
      } finally {
        await dropAll(feeds);
      }
    });

    it('should find nothing missing once sql/recommended-indexes.sql has run, and warn no more', async () => {
      const statements = recommendedStatements();
      expect(statements.map((s) => /^CREATE INDEX (\w+)/.exec(s)?.[1])).toEqual(RECOMMENDED);
      expect(RECOMMENDED.slice(0, 3)).toEqual([
        'ix_pos_sales_shop_id',
        'ix_pos_payments_shop_id',
        'ix_pos_cash_movements_shop_id',
      ]);
      for (const statement of statements) await ctx.db.db.query(statement);
      try {
        const before = capturedLogLines().length;
        ops = await startOpsApp(ctx.db);
        expect(await readiness()).toEqual({ status: 'up', missing: [] });
        expect(
          capturedLogLines()
            .slice(before)
            .filter((l) => l.includes('"context":"RecommendedIndexes"')),
        ).toEqual([]);
      } finally {
        await dropAll(statements);
      }
    });
  },
  { only: ['mysql'] },
);
