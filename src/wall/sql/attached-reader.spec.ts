import type { Row, SqlReader } from '../../database/sql-reader';
import { col, defineSource, withAttached } from '../../catalogue/source';
import { readAttached } from './attached-reader';

const TAGGED = withAttached(
  defineSource({ table: 'things', columns: { id: col.id, at: col.text }, time: 'at' }),
  {
    as: 'tags',
    table: 'thing_tags',
    parentId: 'thing_id',
    columns: { thing_id: col.id, tag: col.text },
    orderBy: [],
    distinct: true,
  },
);

function answering(rows: Row[]) {
  const calls: Array<{ sql: string; params: unknown[] }> = [];
  const db: SqlReader = {
    query: (sql, params) => (calls.push({ sql, params }), Promise.resolve(rows)),
  };
  return { calls, db };
}

describe(readAttached.name, () => {
  it('should read distinct attached rows in one query, unordered when the source orders none', async () => {
    const { calls, db } = answering([
      { thing_id: '5', tag: 'CASH' },
      { thing_id: '5', tag: 'CARD' },
    ]);
    const rows = await readAttached(
      TAGGED,
      [
        { id: '5', at: 'T', tags: [] },
        { id: '6', at: 'T', tags: [] },
      ],
      db,
    );
    expect(calls).toEqual([
      {
        sql: 'SELECT DISTINCT CAST(c.thing_id AS CHAR) AS thing_id, c.tag FROM thing_tags c WHERE c.thing_id IN (?, ?)',
        params: [5n, 6n],
      },
    ]);
    expect(rows.map((r) => r.tags.map((t) => t.tag))).toEqual([['CASH', 'CARD'], []]);
  });

  it('should run no query for an empty page', async () => {
    const { calls, db } = answering([]);
    await expect(readAttached(TAGGED, [], db)).resolves.toEqual([]);
    expect(calls).toHaveLength(0);
  });
});
