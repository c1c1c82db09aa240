import { col, defineSource, derived, sql, withAttached } from '../../catalogue/source';
import { ANY_SHOP, dirtyOf, shopKey } from './dirty-days';

/** Declarations of the test's own: no table of the back office is named in the rules. */
const ORDERS = withAttached(
  defineSource({
    table: 'orders',
    columns: { id: col.id, shop_code: col.text, placed_at: col.text, day: sql('DATE') },
    derived: {
      zone: derived(col.nullableText, {
        kind: 'lookup',
        table: 'stores',
        key: 'code',
        by: 'shop_code',
        column: 'zone',
      }),
    },
    time: 'placed_at',
  }),
  { as: 'items', table: 'items', parentId: 'order_id', columns: { order_id: col.id }, orderBy: [] },
);

const CHARGES = defineSource({
  table: 'charges',
  columns: { id: col.id, order_id: col.id, shop_code: col.text, charged_at: col.text },
  derived: {
    order_day: derived(sql('DATE'), {
      kind: 'lookup',
      table: 'orders',
      key: 'id',
      by: 'order_id',
      column: 'day',
    }),
  },
  time: 'charged_at',
});

const MOVES = defineSource({
  table: 'moves',
  columns: { id: col.id, shop_code: col.text, till: col.text, at: col.text, kind: col.text },
  derived: {
    session_day: derived(sql('DATE'), {
      kind: 'sessionDate',
      partition: ['shop_code', 'till'],
      marker: 'kind',
      opens: 'OPEN',
      closes: 'CLOSE',
    }),
  },
  time: 'at',
});

const SOURCES = [ORDERS, CHARGES, MOVES];
const order = (day: string, at = '2026-03-10 10:00:00.000') => ({
  id: 7,
  shop_code: 'S1',
  placed_at: at,
  day,
});

describe(dirtyOf.name, () => {
  it("should mark a row's date before and after, in its shop", () => {
    const dirt = dirtyOf(SOURCES, [
      {
        table: 'orders',
        before: order('2026-03-10'),
        after: { ...order('2026-03-10', '2026-03-12 08:00:00.000'), shop_code: 'S2 ' },
      },
    ]);
    expect(dirt.marks).toEqual(
      expect.arrayContaining([
        { table: 'orders', shop: 's1', date: '2026-03-10' },
        { table: 'orders', shop: 's2', date: '2026-03-12' },
      ]),
    );
    expect(dirt.broken).toBeUndefined();
  });

  it("should look up an attached row's parent, unless the transaction holds the parent's rows", () => {
    const item = { table: 'items', before: null, after: { order_id: 7 } };
    expect(dirtyOf(SOURCES, [item]).lookups).toEqual([
      { table: 'orders', column: 'id', time: 'placed_at', values: [7] },
    ]);
    const withParent = dirtyOf(SOURCES, [
      { table: 'orders', before: null, after: order('2026-03-10') },
      item,
    ]);
    expect(withParent.lookups.map((l) => l.table)).not.toContain('orders');
    expect(withParent.marks).toContainEqual({ table: 'orders', shop: 's1', date: '2026-03-10' });
  });

  it('should look up the rows whose derived column reads a changed row, only when what they read moved', () => {
    const same = dirtyOf(SOURCES, [
      { table: 'orders', before: order('2026-03-10'), after: order('2026-03-10') },
    ]);
    expect(same.lookups).toEqual([]);
    const moved = dirtyOf(SOURCES, [
      { table: 'orders', before: order('2026-03-10'), after: order('2026-03-09') },
    ]);
    expect(moved.lookups).toEqual([
      { table: 'charges', column: 'order_id', time: 'charged_at', values: [7] },
    ]);
  });

  it('should mark every date of a shop whose looked-up row (by shop_code) changed', () => {
    const dirt = dirtyOf(SOURCES, [
      { table: 'stores', before: { code: 'S1', zone: 'A' }, after: { code: 'S1', zone: 'B' } },
    ]);
    expect(dirt.marks).toEqual([{ table: 'orders', shop: 's1', from: null }]);
  });

  it('should mark every date from an opening or closing row on, and only the own date of another', () => {
    const move = (kind: string) => ({
      id: 1,
      shop_code: 'S1',
      till: 'T1',
      at: '2026-03-08 09:00:00.000',
      kind,
    });
    expect(dirtyOf(SOURCES, [{ table: 'moves', before: null, after: move('OPEN') }]).marks).toEqual(
      [
        { table: 'moves', shop: 's1', date: '2026-03-08' },
        { table: 'moves', shop: 's1', from: '2026-03-08' },
      ],
    );
    expect(dirtyOf(SOURCES, [{ table: 'moves', before: move('IN'), after: null }]).marks).toEqual([
      { table: 'moves', shop: 's1', date: '2026-03-08' },
    ]);
  });

  it('should be broken by an image without a column the rules read (binlog_row_image not FULL)', () => {
    const dirt = dirtyOf(SOURCES, [{ table: 'orders', before: { id: 7 }, after: null }]);
    expect(dirt.broken).toMatch(/orders\.placed_at is not in the log's row image/);
  });

  it('should keep nothing of a table no declaration reads', () => {
    expect(
      dirtyOf(SOURCES, [{ table: 'users', before: null, after: { password_hash: 'x' } }]),
    ).toEqual({ marks: [], lookups: [] });
  });
});

describe(shopKey.name, () => {
  it('should key a plain code by its lower case without trailing spaces, and no other', () => {
    expect(shopKey('SHOP-01 ')).toBe('shop-01');
    expect(shopKey('Shöp')).toBeNull();
    expect(shopKey('A\u0001')).toBeNull();
    expect(shopKey(7)).toBeNull();
    expect(ANY_SHOP).toBe('*');
  });
});
