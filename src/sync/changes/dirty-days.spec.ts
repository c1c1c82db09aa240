import { col, defineSource, derived, sql, withAttached, withSession } from '../../catalogue/source';
import { ANY_SHOP, businessDayTable, dirtyOf, shopKey } from './dirty-days';

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

/** A DATE column of the row of `table` whose id the row's `by` holds. */
const dateOf = (table: string, by: string, column: string) =>
  derived(sql('DATE'), { kind: 'lookup', table, key: 'id', by, column });

const CHARGES = defineSource({
  table: 'charges',
  columns: { id: col.id, order_id: col.id, shop_code: col.text, charged_at: col.text },
  derived: { order_day: dateOf('orders', 'order_id', 'day') },
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
      index: 'ix_moves_shop_at',
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

/** The same shapes with a business date: a column of the tickets, their receipts' by lookup. */
const TICKETS = withAttached(
  defineSource({
    table: 'tickets',
    columns: { id: col.id, shop_code: col.text, at: col.text, business_date: sql('DATE') },
    derived: { zone: ORDERS.derived.zone },
    time: 'at',
  }),
  {
    as: 'items',
    table: 'ticket_items',
    parentId: 'ticket_id',
    columns: { ticket_id: col.id },
    orderBy: [],
  },
);
const RECEIPTS = defineSource({
  table: 'receipts',
  columns: { id: col.id, ticket_id: col.id, shop_code: col.text, at: col.text },
  derived: { business_date: dateOf('tickets', 'ticket_id', 'business_date') },
  time: 'at',
});
const DATED = [TICKETS, RECEIPTS];
const ticket = (businessDate: string, shop = 'S1') => ({
  id: 3,
  shop_code: shop,
  at: '2026-03-10 23:00:00.000',
  business_date: businessDate,
});
const receipt = { id: 30, ticket_id: 3, shop_code: 'S2', at: '2026-03-11 01:00:00.000' };
const byDay = (dirt: ReturnType<typeof dirtyOf>) =>
  dirt.marks.filter((mark) => mark.table.endsWith('#business-day'));

describe(businessDayTable.name, () => {
  it("should keep a source's business days apart from its dates, unless they are its dates, and none of a session's", () => {
    expect(businessDayTable(TICKETS)).toBe('tickets#business-day');
    expect(businessDayTable(RECEIPTS)).toBe('receipts#business-day');
    expect(businessDayTable(ORDERS)).toBe('orders');
    const sessionDated = defineSource({
      ...MOVES,
      derived: { business_date: MOVES.derived.session_day },
    });
    expect(businessDayTable(sessionDated)).toBeNull();
    const sessions = withSession(defineSource({ ...MOVES, derived: {} }), {
      as: 'moves',
      partition: ['shop_code', 'till'],
      marker: 'kind',
      opens: 'OPEN',
      closes: 'CLOSE',
      columns: {},
    });
    expect(businessDayTable(sessions)).toBeNull();
  });
});

describe(`${dirtyOf.name}: business days`, () => {
  it("should mark a row's business day before and after, in its shop, beside its calendar date", () => {
    const dirt = dirtyOf(DATED, [
      { table: 'tickets', before: ticket('2026-03-10'), after: ticket('2026-03-09', 'S3') },
    ]);
    expect(dirt.marks).toContainEqual({ table: 'tickets', shop: 's1', date: '2026-03-10' });
    expect(byDay(dirt)).toEqual(
      expect.arrayContaining([
        { table: 'tickets#business-day', shop: 's1', date: '2026-03-10' },
        { table: 'tickets#business-day', shop: 's3', date: '2026-03-09' },
      ]),
    );
  });

  it("should look up an attached row's parent's business day, unless the transaction holds the parent", () => {
    const item = { table: 'ticket_items', before: { ticket_id: 3 }, after: null };
    expect(dirtyOf(DATED, [item]).lookups).toContainEqual({
      table: 'tickets',
      column: 'id',
      time: 'business_date',
      values: [3],
      mark: { table: 'tickets#business-day' },
    });
    const withParent = dirtyOf(DATED, [
      { table: 'tickets', before: null, after: ticket('2026-03-10') },
      item,
    ]);
    expect(withParent.lookups.filter((l) => l.table === 'tickets')).toEqual([]);
  });

  it("should look up a row's looked-up business day in the row's own shop, or read it from the transaction's rows", () => {
    const alone = dirtyOf(DATED, [{ table: 'receipts', before: receipt, after: null }]);
    expect(alone.lookups).toContainEqual({
      table: 'tickets',
      column: 'id',
      time: 'business_date',
      values: [3],
      mark: { table: 'receipts#business-day', shop: 's2' },
    });
    const together = dirtyOf(DATED, [
      { table: 'tickets', before: null, after: ticket('2026-03-10') },
      { table: 'receipts', before: null, after: receipt },
    ]);
    expect(byDay(together)).toContainEqual({
      table: 'receipts#business-day',
      shop: 's2',
      date: '2026-03-10',
    });
    expect(together.lookups.filter((l) => l.mark?.table === 'receipts#business-day')).toEqual([]);
  });

  it('should mark the business days a looked-up row moves, in every shop, only when its key, date or shop moved', () => {
    const edit = (after: Record<string, unknown>) =>
      dirtyOf(DATED, [{ table: 'tickets', before: ticket('2026-03-10'), after }]);
    const receipts = (dirt: ReturnType<typeof dirtyOf>) =>
      byDay(dirt).filter((mark) => mark.table === 'receipts#business-day');
    expect(receipts(edit({ ...ticket('2026-03-10'), at: '2026-03-12 10:00:00.000' }))).toEqual([]);
    for (const after of [
      ticket('2026-03-08'),
      ticket('2026-03-10', 'S9'),
      { ...ticket('2026-03-10'), id: 4 },
    ]) {
      expect(receipts(edit(after))).toContainEqual({
        table: 'receipts#business-day',
        shop: ANY_SHOP,
        date: '2026-03-10',
      });
    }
    expect(receipts(edit(ticket('2026-03-08')))).toContainEqual({
      table: 'receipts#business-day',
      shop: ANY_SHOP,
      date: '2026-03-08',
    });
  });

  it('should mark every business day of a shop whose zone changed', () => {
    const dirt = dirtyOf(DATED, [
      { table: 'stores', before: { code: 'S1', zone: 'A' }, after: { code: 'S1', zone: 'B' } },
    ]);
    expect(byDay(dirt)).toEqual([{ table: 'tickets#business-day', shop: 's1', from: null }]);
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
