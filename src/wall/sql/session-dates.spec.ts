import { col, defineSource, derived, type Derivation, sql } from '../../catalogue/source';
import { boundariesQuery } from './session-dates';

const rule: Extract<Derivation, { kind: 'sessionDate' }> = {
  kind: 'sessionDate',
  partition: ['shop_code', 'drawer'],
  marker: 'kind',
  opens: 'FLOAT',
  closes: 'COUNT',
  index: 'ix_moves_shop_at',
};
/** A session-dated source, as the catalogue's cash movements are. */
const MOVES = defineSource({
  table: 'moves',
  columns: {
    id: col.id,
    shop_code: col.text,
    drawer: col.text,
    kind: col.text,
    at: col.text,
  },
  derived: { business_date: derived(sql('DATE'), rule) },
  time: 'at',
});
const at = (time: string, id: bigint) => ({ kind: 'SALE', time, id });
const partitions = [
  {
    values: ['S1', 'T1'],
    first: at('2026-07-02 10:53:43.883', 50_001n),
    last: at('2026-07-05 18:36:00.013', 51_000n),
  },
];

describe(boundariesQuery.name, () => {
  it("should tell MySQL/MariaDB to walk the table's (shop_code, time, id) index back, in the backward member only", () => {
    const { sql } = boundariesQuery(MOVES, rule, partitions, 'mysql');
    const forced = 'FROM moves d FORCE INDEX (ix_moves_shop_at) WHERE';
    expect(sql.split(forced)).toHaveLength(2);
    expect(sql.indexOf(forced)).toBeLessThan(sql.indexOf('DESC LIMIT 1'));
    expect(sql.slice(sql.indexOf('UNION ALL'))).not.toContain('FORCE INDEX');
  });

  it('should give SQLite, and a reader that names no engine, the statement without a hint', () => {
    for (const dialect of ['sqlite', undefined] as const) {
      const { sql, params } = boundariesQuery(MOVES, rule, partitions, dialect);
      expect(sql).not.toContain('FORCE INDEX');
      expect(sql).toContain('FROM moves d WHERE');
      expect(params).toEqual(boundariesQuery(MOVES, rule, partitions, 'mysql').params);
    }
  });

  it('should refuse an index name that is not a plain SQL name', () => {
    const broken = { ...rule, index: 'ix; DROP TABLE x' };
    expect(() => boundariesQuery(MOVES, broken, partitions, 'mysql')).toThrow(TypeError);
  });
});
