import type { Row, SqlReader } from '../../database/sql-reader';
import { defineSource, nullable, sql, withAttached } from '../../catalogue/source';
import { createHash } from 'node:crypto';
import {
  EMPTY_PART,
  fingerprintPart,
  fingerprintStatements,
  MAX_CONCAT_BYTES,
  partOf,
  readFingerprints,
} from './day-fingerprint';

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
  const hashed = (alias: string, names: string[]) =>
    `SHA2(CONCAT_WS(',', ${names.map((n) => `QUOTE(${alias}.${n})`).join(', ')}), 256)`;

  it.each([['orders', ORDERS] as const])(
    "should hash every declared column of %s and of what it attaches, in the declaration's order, concatenated in key order",
    (_route, source) => {
      const [own, ...attached] = fingerprintStatements(source, 'mysql');
      expect(own).toContain(
        `SHA2(GROUP_CONCAT(UNHEX(${hashed('x', Object.keys(source.columns))}) ORDER BY x.id SEPARATOR ''), 256)`,
      );
      expect(own).toContain(`FROM ${source.table} x WHERE`);
      expect(own).toContain(`GROUP BY DATE(x.${source.time})`);
      expect(own).not.toMatch(/\bSUM\(|\bCRC32\(|\bBIT_XOR\(/);
      expect(attached).toHaveLength(source.attached.length);
      source.attached.forEach((a, i) => {
        const order = [a.parentId, ...a.orderBy].map((c) => `c.${c}`).join(', ');
        expect(attached[i]).toContain(
          `GROUP_CONCAT(UNHEX(${hashed('c', Object.keys(a.columns))}) ORDER BY ${order} SEPARATOR '')`,
        );
        expect(attached[i]).toContain(`JOIN ${source.table} x ON x.id = c.${a.parentId}`);
      });
    },
  );

  it("should raise MySQL's and MariaDB's GROUP_CONCAT limit for the statement, and select the limit it ran under", () => {
    for (const sql of fingerprintStatements(ORDERS, 'mysql')) {
      expect(sql).toMatch(
        new RegExp(
          `^/\\*M!100102 SET STATEMENT group_concat_max_len = ${MAX_CONCAT_BYTES} FOR \\*/ SELECT /\\*\\+ SET_VAR\\(group_concat_max_len = ${MAX_CONCAT_BYTES}\\) \\*/ `,
        ),
      );
      expect(sql).toContain(
        'LEAST(@@SESSION.group_concat_max_len, @@SESSION.max_allowed_packet) AS cap',
      );
    }
  });

  it("should concatenate with SQLite's registered ordered aggregate there, with no limit", () => {
    const [own, lines] = fingerprintStatements(ORDERS, 'sqlite');
    expect(own).toMatch(/^SELECT DATE/);
    expect(own).toContain(
      `SHA2_CONCAT(UNHEX(${hashed('x', Object.keys(ORDERS.columns))}) ORDER BY x.id) AS h, NULL AS cap`,
    );
    expect(lines).toContain('ORDER BY c.order_id, c.part_no) AS h');
    expect(own).not.toContain('GROUP_CONCAT');
  });

  const sha = (...hex: string[]) =>
    createHash('sha256')
      .update(Buffer.concat(hex.map((h) => Buffer.from(h, 'hex'))))
      .digest('hex');
  const [a, b] = ['a'.repeat(64), '0123456789abcdef'.repeat(4)];

  it('should digest row hashes as the grouped statements do: count, then SHA-256 of their bytes in order', () => {
    expect(fingerprintPart([])).toBe(`0:${sha()}`);
    expect(EMPTY_PART).toBe(`0:${sha()}`);
    expect(fingerprintPart([a, b])).toBe(`2:${sha(a, b)}`);
    // Not a sum: the same hashes in another order, or one row's hash moved, give another digest.
    expect(fingerprintPart([b, a])).not.toBe(fingerprintPart([a, b]));
  });

  it('should trust a grouped row only when its concatenation fitted the limit it ran under', () => {
    const h = sha(a);
    expect(partOf({ n: 2, h, cap: 64 }, 'mysql')).toBe(`2:${h}`);
    // 3 rows are 96 bytes: MySQL truncated them silently at 64, a fingerprint of 2 rows only.
    expect(partOf({ n: 3, h, cap: 64 }, 'mysql')).toBeNull();
    expect(partOf({ n: '3', h, cap: '1048576' }, 'mysql')).toBe(`3:${h}`);
    expect(partOf({ n: 3, h, cap: null }, 'mysql')).toBeNull();
    expect(partOf({ n: 1, h: null, cap: 64 }, 'mysql')).toBeNull();
    expect(partOf({ n: 1, h: 'not a digest', cap: 64 }, 'mysql')).toBeNull();
    expect(partOf({ n: 100_000, h, cap: null }, 'sqlite')).toBe(`100000:${h}`);
  });

  const sales = ORDERS;

  function reader(
    answers: Row[][],
  ): SqlReader & { calls: Array<{ sql: string; params: unknown[] }> } {
    const calls: Array<{ sql: string; params: unknown[] }> = [];
    return {
      calls,
      dialect: 'mysql',
      query: (sql, params) => {
        calls.push({ sql, params });
        return Promise.resolve(answers[calls.length - 1] ?? []);
      },
    };
  }

  const [h1, h2, h3] = [sha(a), sha(b), sha(a, b)];

  it("should join each date's parts after the scheme in the statements' order, a missing attachment as the empty part", async () => {
    const db = reader([
      [
        { day: '2026-03-01', n: 2, h: h1, cap: 1024 },
        { day: '2026-03-02', n: 1, h: h2, cap: 1024 },
      ],
      [{ day: '2026-03-01', n: 3, h: h3, cap: 1024 }],
    ]);
    const prints = await readFingerprints(sales, ['S1', 'S2'], { from: 'a', to: 'b' }, db);
    expect([...prints]).toEqual([
      ['2026-03-01', `sha256/2:${h1}/3:${h3}`],
      ['2026-03-02', `sha256/1:${h2}/${EMPTY_PART}`],
    ]);
    expect(db.calls.map((c) => c.params)).toEqual([
      ['S1', 'S2', 'a', 'b'],
      ['S1', 'S2', 'a', 'b'],
    ]);
    expect(db.calls[0].sql).toContain('x.shop_code IN (?, ?)');
  });

  it('should give no fingerprint (null, not absent) to a date whose rows did not fit, so it is read again', async () => {
    const db = reader([
      [
        { day: '2026-03-01', n: 2, h: h1, cap: 64 },
        { day: '2026-03-02', n: 1, h: h2, cap: 64 },
      ],
      [{ day: '2026-03-01', n: 3, h: h3, cap: 64 }],
    ]);
    const prints = await readFingerprints(sales, ['S1'], { from: 'a', to: 'b' }, db);
    expect(prints.get('2026-03-01')).toBeNull();
    expect(prints.get('2026-03-02')).toBe(`sha256/1:${h2}/${EMPTY_PART}`);
  });

  it('should read nothing for no shop', async () => {
    const db = reader([]);
    expect(await readFingerprints(sales, [], { from: 'a', to: 'b' }, db)).toEqual(new Map());
    expect(db.calls).toHaveLength(0);
  });

  it('should refuse a reader that does not name its engine', async () => {
    const db = { query: () => Promise.resolve([]) };
    await expect(readFingerprints(sales, ['S1'], { from: 'a', to: 'b' }, db)).rejects.toThrow(
      'names no dialect',
    );
  });
});
