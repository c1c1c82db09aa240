import { col, defineSource } from '../../catalogue/source';
import { buildKeysetQuery } from './keyset-query';

const resource = defineSource({
  table: 'things',
  columns: { id: col.id, at: col.text, note: col.nullableText },
  time: 'at',
});

describe(buildKeysetQuery.name, () => {
  it('should read one shop through one index range, limit + 1 rows, never OFFSET', () => {
    const q = buildKeysetQuery(resource, ['S1'], {
      from: 'F',
      to: 'T',
      after: { time: 'K', id: '9007199254740993' },
      limit: 500,
    });
    expect(q.sql).toBe(
      'SELECT CAST(x.id AS CHAR) AS id, x.at, x.note, x.at AS k_t, CAST(x.id AS CHAR) AS k_id FROM things x WHERE x.shop_code = ? AND x.at >= ? AND x.at < ? ' +
        'AND x.at >= ? AND (x.at > ? OR (x.at = ? AND x.id > ?)) ORDER BY x.at, x.id LIMIT ?',
    );
    expect(q.params).toEqual(['S1', 'F', 'T', 'K', 'K', 'K', 9007199254740993n, 501]);
    expect(q.sql).not.toMatch(/OFFSET/i);
  });

  it('should merge several shops from their own index ranges and bind every value', () => {
    const q = buildKeysetQuery(resource, ['S1', 'S2'], {
      from: null,
      to: null,
      after: null,
      limit: 10,
    });
    expect(q.sql).toContain('UNION ALL');
    expect(q.sql.match(/s\.shop_code = \?/g)).toHaveLength(2);
    expect(q.params).toEqual(['S1', 11, 'S2', 11, 11]);
    expect(q.sql).not.toMatch(/S1|S2|OFFSET/);
  });
});
