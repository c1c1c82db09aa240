import { col, defineSource, selectList, type SourceRow, withAttached } from './source';

const THINGS = withAttached(
  defineSource({
    table: 'things',
    columns: { id: col.id, at: col.text, note: col.nullableText, amount: col.decimal },
    time: 'at',
  }),
  { as: 'parts', table: 'parts', parentId: 'thing_id', columns: { thing_id: col.id }, orderBy: [] },
);

describe(defineSource.name, () => {
  it('should select exactly the declared columns, ids as exact decimal strings', () => {
    expect(selectList(THINGS.columns, 'x')).toBe(
      'CAST(x.id AS CHAR) AS id, x.at, x.note, x.amount',
    );
  });

  it('should type a row by the same columns: a column not declared is a compile error', () => {
    const row: SourceRow<typeof THINGS> = {
      id: '1',
      at: '2026-03-01 10:00:00.000',
      note: null,
      amount: '1.00',
      parts: [{ thing_id: '1' }],
    };
    // @ts-expect-error: `total` is not a column of THINGS, so a mapper cannot read it.
    const total: unknown = row.total;
    expect(total).toBeUndefined();
    expect(THINGS.attached.map((a) => a.table)).toEqual(['parts']);
  });
});
