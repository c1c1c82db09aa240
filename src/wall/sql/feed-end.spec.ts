import type { PrimaryReader } from '../../database/replicas/read-router';
import type { Row } from '../../database/sql-reader';
import { col, defineSource } from '../../catalogue/source';
import { loadSqliteDriver } from '../../database/sqlite-driver';
import { readFeedEnd } from './feed-end';

const THINGS = defineSource({ table: 'things', columns: { id: col.id, at: col.text }, time: 'at' });

/**
 * A primary whose committed rows of the shop are `committed` (ids) and whose READ UNCOMMITTED
 * reads also see `inFlight`; each statement answers by its parameters (after, up to, limit).
 */
function primary(committed: number[], inFlight: number[] | null) {
  const statements: string[] = [];
  const rangeOf = (ids: number[], params: unknown[]): Row[] => {
    const [after, upTo, limit] = params.slice(-3).map(Number);
    return ids
      .filter((id) => id > after && id <= upTo)
      .sort((a, b) => a - b)
      .slice(0, limit)
      .map((id) => ({ row_id: String(id) }));
  };
  const answer = (ids: number[], uncommitted: boolean) => (sql: string, params: unknown[]) => {
    statements.push(`${uncommitted ? 'uncommitted' : 'committed'}: ${sql.slice(0, 30)}`);
    if (sql.includes('MAX(id)')) {
      return Promise.resolve([{ id: ids.length ? String(Math.max(...ids)) : null }] as Row[]);
    }
    return Promise.resolve(rangeOf(ids, params));
  };
  const db: PrimaryReader = {
    query: answer(committed, false),
    uncommitted: inFlight ? { query: answer([...committed, ...inFlight], true) } : null,
  };
  return { db, statements };
}

describe(readFeedEnd.name, () => {
  it('should answer the highest committed id when nothing is in flight', async () => {
    const { db } = primary([3, 5, 9], []);
    await expect(readFeedEnd(THINGS, ['S1'], db)).resolves.toBe('9');
  });

  it('should stop below the lowest insert still in flight under the highest committed id', async () => {
    const { db } = primary([3, 5, 9], [4, 7]);
    await expect(readFeedEnd(THINGS, ['S1'], db)).resolves.toBe('3');
  });

  it('should ignore an insert in flight above the highest committed id: the feed reads past it later', async () => {
    const { db } = primary([3, 5, 9], [12]);
    await expect(readFeedEnd(THINGS, ['S1'], db)).resolves.toBe('9');
  });

  it('should find an insert in flight in a later slice of a long table', async () => {
    const committed = Array.from({ length: 45_000 }, (_, i) => i * 2 + 1);
    const { db, statements } = primary(committed, [60_000]);
    await expect(readFeedEnd(THINGS, ['S1'], db)).resolves.toBe('59999');
    // The highest id, then two slices of 20,000 committed ids each read twice.
    expect(statements.filter((s) => s.startsWith('uncommitted'))).toHaveLength(2);
  });

  it("should read only the highest id on SQLite (no reader of uncommitted rows), and '0' without rows or shops", async () => {
    const { db, statements } = primary([3, 5], null);
    await expect(readFeedEnd(THINGS, ['S1'], db)).resolves.toBe('5');
    expect(statements).toHaveLength(1);
    await expect(readFeedEnd(THINGS, ['S1'], primary([], []).db)).resolves.toBe('0');
    await expect(readFeedEnd(THINGS, [], primary([3], []).db)).resolves.toBe('0');
  });
  it("should read the slices in the ids' order on a real engine, not their text's ('10' < '9')", async () => {
    // SQLite in memory, committed reads for both readers: nothing in flight, so the end is the
    // highest id whatever the lengths of the ids and the number of slices.
    const Database = loadSqliteDriver() as new (file: string) => {
      exec(sql: string): void;
      prepare(sql: string): { all(...params: unknown[]): Row[] };
    };
    const engine = new Database(':memory:');
    engine.exec('CREATE TABLE things (id INTEGER PRIMARY KEY, shop_code TEXT, at TEXT)');
    const ids = [1, 2, 9, 10, 11, 99, 100, 101, 999, 1000, 1001];
    engine.exec(
      `INSERT INTO things (id, shop_code) VALUES ${ids.map((id) => `(${id}, 'S1')`).join(', ')}`,
    );
    const query = (sql: string, params: unknown[]) =>
      Promise.resolve(
        engine.prepare(sql).all(...params.map((p) => (typeof p === 'bigint' ? Number(p) : p))),
      );
    const db: PrimaryReader = { query, uncommitted: { query } };
    for (const slice of [2, 3, 5, 20_000])
      await expect(readFeedEnd(THINGS, ['S1'], db, slice)).resolves.toBe('1001');
  });
});
