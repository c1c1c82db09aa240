import type { Row, SqlReader } from '../../database/sql-reader';
import { defineSource, nullable, sql, withAttached } from '../../catalogue/source';
import { fingerprintPart, fingerprintStatements, readFingerprints } from './day-fingerprint';

/** A spec's own source: orders with their parts (the catalogue's run in digest-cache.e2e-spec). */
const ORDERS = withAttached(
  defineSource({
    table: 'orders',
    columns: {
      id: sql('BIGINT UNSIGNED'),
      shop_code: sql('VARCHAR(16)'),
      placed_at: sql('DATETIME(3)'),
      total: sql('DECIMAL(15,2)'),
      note: nullable('VARCHAR(32)'),
    },
    time: 'placed_at',
  }),
  {
    as: 'parts',
    table: 'order_parts',
    parentId: 'order_id',
    columns: { order_id: sql('BIGINT UNSIGNED'), part_no: sql('SMALLINT UNSIGNED') },
    orderBy: ['part_no'],
  },
);

describe('day fingerprints', () => {
  it.each([['orders', ORDERS] as const])(
    "should hash every declared column of %s and of what it attaches, in the declaration's order",
    (_route, source) => {
      const [own, ...attached] = fingerprintStatements(source);
      const quoted = (alias: string, names: string[]) =>
        `CRC32(CONCAT_WS(',', ${names.map((n) => `QUOTE(${alias}.${n})`).join(', ')}))`;
      expect(own).toContain(`SUM(${quoted('x', Object.keys(source.columns))})`);
      expect(own).toContain(`FROM ${source.table} x WHERE`);
      expect(own).toContain(`GROUP BY DATE(x.${source.time})`);
      expect(attached).toHaveLength(source.attached.length);
      source.attached.forEach((a, i) => {
        expect(attached[i]).toContain(`SUM(${quoted('c', Object.keys(a.columns))})`);
        expect(attached[i]).toContain(`JOIN ${source.table} x ON x.id = c.${a.parentId}`);
      });
    },
  );

  it('should sum row hashes as the grouped statements do: count, then exact sum', () => {
    expect(fingerprintPart([])).toBe('0:0');
    expect(fingerprintPart([4294967295, '4294967295', 1])).toBe('3:8589934591');
  });

  const sales = ORDERS;

  function reader(
    answers: Row[][],
  ): SqlReader & { calls: Array<{ sql: string; params: unknown[] }> } {
    const calls: Array<{ sql: string; params: unknown[] }> = [];
    return {
      calls,
      query: (sql, params) => {
        calls.push({ sql, params });
        return Promise.resolve(answers[calls.length - 1] ?? []);
      },
    };
  }

  it("should join each date's parts in the statements' order, a missing attachment as 0:0", async () => {
    const db = reader([
      [
        { day: '2026-03-01', n: 2, h: '10' },
        { day: '2026-03-02', n: 1, h: '7' },
      ],
      [{ day: '2026-03-01', n: 3, h: '12' }],
    ]);
    const prints = await readFingerprints(sales, ['S1', 'S2'], { from: 'a', to: 'b' }, db);
    expect([...prints]).toEqual([
      ['2026-03-01', '2:10/3:12'],
      ['2026-03-02', '1:7/0:0'],
    ]);
    expect(db.calls.map((c) => c.params)).toEqual([
      ['S1', 'S2', 'a', 'b'],
      ['S1', 'S2', 'a', 'b'],
    ]);
    expect(db.calls[0].sql).toContain('x.shop_code IN (?, ?)');
  });

  it('should read nothing for no shop', async () => {
    const db = reader([]);
    expect(await readFingerprints(sales, [], { from: 'a', to: 'b' }, db)).toEqual(new Map());
    expect(db.calls).toHaveLength(0);
  });
});
