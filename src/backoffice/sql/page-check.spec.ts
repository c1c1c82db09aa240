import type { Row } from '../../database/sql-reader';
import { col, defineSource, withAttached } from '../source';
import { buildPageCheck, fingerprintOf, stillHeld } from './page-check';

const THINGS = withAttached(
  defineSource({
    table: 'things',
    columns: { id: col.id, shop_code: col.text, at: col.text, note: col.nullableText },
    time: 'at',
  }),
  {
    as: 'parts',
    table: 'parts',
    parentId: 'thing_id',
    columns: { thing_id: col.id, no: col.integer },
    orderBy: ['no'],
  },
);
const BOUNDS = {
  from: '2026-01-01 00:00:00.000',
  to: null,
  after: { time: '2026-01-01 10:00:00.000', id: '4' },
  limit: 2,
};
const thing = (id: string, note: string | null, parts = 1) => ({
  id,
  shop_code: 'S1',
  at: `2026-01-01 11:00:0${id}.000`,
  note,
  k_t: `2026-01-01 11:00:0${id}.000`,
  k_id: id,
  parts: Array.from({ length: parts }, (_, i) => ({ thing_id: id, no: i + 1 })),
});
const slice = (...rows: Array<ReturnType<typeof thing>>) => ({
  rows,
  next: { time: rows[rows.length - 1].k_t, id: rows[rows.length - 1].k_id },
});
const placeholders = (sql: string) => (sql.match(/\?/g) ?? []).length;

describe('page check (decision 29.13)', () => {
  it('should fingerprint every column, NULL apart from any text, and the attached rows', () => {
    const base = fingerprintOf(THINGS, slice(thing('5', null), thing('6', 'x')));
    expect(base.rows).toMatch(/^2\/\d+$/);
    expect(base.attached).toEqual([expect.stringMatching(/^2\/\d+$/)]);
    expect(base.more).toBe(true);
    for (const changed of [
      slice(thing('5', 'N'), thing('6', 'x')),
      slice(thing('5', ''), thing('6', 'x')),
      slice(thing('5', null), thing('6', 'y')),
    ]) {
      expect(fingerprintOf(THINGS, changed).rows).not.toBe(base.rows);
    }
    const morePart = fingerprintOf(THINGS, slice(thing('5', null, 2), thing('6', 'x')));
    expect(morePart.rows).toBe(base.rows);
    expect(morePart.attached).not.toEqual(base.attached);
  });

  it('should build one statement per shop range, its parameters matching its placeholders', () => {
    const one = buildPageCheck(THINGS, ['S1'], BOUNDS, {
      time: '2026-01-01 11:00:06.000',
      id: '6',
    });
    expect(one.sql).toMatch(/ AS f0, .* AS f1, .* AS more$/);
    expect(one.sql).toContain('JOIN parts c ON c.thing_id = x.id');
    expect(placeholders(one.sql)).toBe(one.params.length);
    const two = buildPageCheck(THINGS, ['S1', 'S2'], BOUNDS, null);
    expect(two.sql).not.toContain(' AS f0');
    expect(two.sql.match(/EXISTS/g)).toHaveLength(2);
    expect(placeholders(two.sql)).toBe(two.params.length);
  });

  it('should say held only when the database answers the held page fingerprint and next page', async () => {
    const held = slice(thing('5', null), thing('6', 'x'));
    const f = fingerprintOf(THINGS, held);
    const answering = (row: Row) => ({ query: jest.fn(() => Promise.resolve([row])) });
    const same = { f0: f.rows, f1: f.attached[0], more: 1 };
    const db = answering(same);
    await expect(stillHeld(THINGS, ['S1'], BOUNDS, held, db)).resolves.toBe(true);
    expect(db.query).toHaveBeenCalledTimes(1);
    for (const other of [
      { ...same, f0: '2/1' },
      { ...same, f1: '3/1' },
      { ...same, more: 0 },
    ]) {
      await expect(stillHeld(THINGS, ['S1'], BOUNDS, held, answering(other))).resolves.toBe(false);
    }
    await expect(stillHeld(THINGS, [], BOUNDS, held, answering(same))).resolves.toBe(false);
    const failing = { query: () => Promise.reject(new Error('down')) };
    await expect(stillHeld(THINGS, ['S1'], BOUNDS, held, failing)).rejects.toThrow('down');
  });
});
