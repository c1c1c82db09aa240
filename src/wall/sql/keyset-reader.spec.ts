import type { Row, SqlReader } from '../../database/sql-reader';
import { col, defineSource } from '../../catalogue/source';
import { readKeyset } from './keyset-reader';

const THINGS = defineSource({
  table: 'things',
  columns: { id: col.text, at: col.text },
  time: 'at',
});
const ALL = { from: null, to: null, after: null, limit: 2 };

/** Row `n` as the keyset query returns it: the read model's columns plus k_t and k_id. */
const row = (n: number): Row => ({
  id: String(n),
  k_t: `2026-03-01 10:00:0${n}.000`,
  k_id: String(n),
});

/** A reader answering `rows` to every query, recording what it was asked. */
function recording(rows: Row[]) {
  const calls: Array<{ sql: string; params: unknown[] }> = [];
  const db: SqlReader = {
    query: (sql, params) => {
      calls.push({ sql, params });
      return Promise.resolve(rows.map((r) => ({ ...r })));
    },
  };
  return { calls, db };
}

describe(readKeyset.name, () => {
  it('should ask for limit + 1 rows and answer the last slice without a next position', async () => {
    const { calls, db } = recording([row(1), row(2)]);
    const slice = await readKeyset(THINGS, ['S1'], ALL, db);
    expect(slice.rows.map((r) => r.id)).toEqual(['1', '2']);
    expect(slice.next).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0].params).toEqual(['S1', 3]);
  });

  it('should drop the extra row and start the next read after the last row it returns', async () => {
    const { db } = recording([row(1), row(2), row(3)]);
    const slice = await readKeyset(THINGS, ['S1'], ALL, db);
    expect(slice.rows.map((r) => r.id)).toEqual(['1', '2']);
    expect(slice.next).toEqual({ time: '2026-03-01 10:00:02.000', id: '2' });
  });

  it("should bind the bounds and the position into the keyset query's SQL, never into its text", async () => {
    const { calls, db } = recording([]);
    const bounds = { from: 'F', to: 'T', after: { time: 'K', id: '9007199254740993' }, limit: 2 };
    await readKeyset(THINGS, ['S1', 'S2'], bounds, db);
    expect(calls[0].sql).toContain('UNION ALL');
    expect(calls[0].sql).not.toMatch(/S1|S2|9007199254740993/);
    expect(calls[0].params).toEqual(
      expect.arrayContaining(['S1', 'S2', 'F', 'T', 'K', 9007199254740993n]),
    );
  });

  it('should answer an empty slice without a query when there is no shop to read', async () => {
    const { calls, db } = recording([row(1)]);
    await expect(readKeyset(THINGS, [], ALL, db)).resolves.toEqual({ rows: [], next: null });
    expect(calls).toHaveLength(0);
  });

  it('should answer an empty slice without a query when From equals To', async () => {
    const { calls, db } = recording([row(1)]);
    const empty = { ...ALL, from: '2026-03-01 10:00:00.000', to: '2026-03-01 10:00:00.000' };
    await expect(readKeyset(THINGS, ['S1'], empty, db)).resolves.toEqual({ rows: [], next: null });
    expect(calls).toHaveLength(0);
  });
});
