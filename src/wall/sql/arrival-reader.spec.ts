import type { PrimaryReader } from '../../database/replicas/read-router';
import type { Row } from '../../database/sql-reader';
import { col, defineSource } from '../../catalogue/source';
import { type FeedQuery, readArrivals } from './arrival-reader';

const SOURCE = defineSource({
  table: 'things',
  columns: { id: col.id, at: col.text },
  time: 'at',
  arrivedAt: 'created_at',
});

const query = (overrides: Partial<FeedQuery> = {}): FeedQuery => ({
  shopCode: null,
  since: null,
  afterId: null,
  limit: 3,
  wait: 0,
  ...overrides,
});

/** A primary whose committed read answers `committed` ids and whose READ UNCOMMITTED read `seen`. */
function primary(committed: number[], seen: number[] | null) {
  const queries: Array<{ uncommitted: boolean; sql: string; params: unknown[] }> = [];
  const rows = (ids: number[]): Row[] => ids.map((id) => ({ id: String(id) }));
  const reader: PrimaryReader = {
    query: (sql, params) => {
      queries.push({ uncommitted: false, sql, params });
      return Promise.resolve(rows(committed));
    },
    uncommitted: seen && {
      query: (sql, params) => {
        queries.push({ uncommitted: true, sql, params });
        return Promise.resolve(rows(seen));
      },
    },
  };
  return { reader, queries };
}

describe(readArrivals.name, () => {
  it('should serve a full page and say there is more when nothing is in flight', async () => {
    const { reader, queries } = primary([11, 12, 13, 14], [11, 12, 13]);
    const slice = await readArrivals(SOURCE, ['S1'], query({ afterId: '10' }), reader);
    expect(slice).toEqual({
      rows: [{ id: '11' }, { id: '12' }, { id: '13' }],
      position: '13',
      caughtUp: false,
    });
    expect(queries[0].params).toEqual(['S1', 10n, 4]);
    // The second read covers the page's range only: (position, last id].
    expect(queries[1]).toMatchObject({ uncommitted: true, params: ['S1', 10n, 13n] });
  });

  it('should stop before the lowest id in flight, and say to poll later', async () => {
    const { reader } = primary([11, 13, 15, 16], [11, 12, 13, 14, 15]);
    const slice = await readArrivals(SOURCE, ['S1'], query({ afterId: '10' }), reader);
    expect(slice).toEqual({ rows: [{ id: '11' }], position: '11', caughtUp: true, inFlight: true });
  });

  it('should keep its position when the first id after it is in flight', async () => {
    const { reader } = primary([12], [11, 12]);
    const slice = await readArrivals(SOURCE, ['S1'], query({ afterId: '10' }), reader);
    expect(slice).toEqual({ rows: [], position: '10', caughtUp: true, inFlight: true });
  });

  it('should move past a gap that neither read shows (a rolled-back insert)', async () => {
    const { reader } = primary([11, 13], [11, 13]);
    const slice = await readArrivals(SOURCE, ['S1'], query({ afterId: '10' }), reader);
    expect(slice).toEqual({ rows: [{ id: '11' }, { id: '13' }], position: '13', caughtUp: true });
  });

  it('should read once on SQLite, whose single writer leaves nothing in flight below a committed id', async () => {
    const { reader, queries } = primary([1, 2], null);
    const slice = await readArrivals(SOURCE, ['S1'], query(), reader);
    expect(slice).toEqual({ rows: [{ id: '1' }, { id: '2' }], position: '2', caughtUp: true });
    expect(queries).toHaveLength(1);
  });

  it('should filter on the arrival column from the first call on, in both reads', async () => {
    const { reader, queries } = primary([5], [5]);
    await readArrivals(SOURCE, ['S1', 'S2'], query({ since: '2026-06-02 00:00:00.000' }), reader);
    expect(queries[0].sql).toContain('s.created_at >= ?');
    expect(queries[0].params).toEqual([
      'S1',
      0n,
      '2026-06-02 00:00:00.000',
      4,
      'S2',
      0n,
      '2026-06-02 00:00:00.000',
      4,
      4,
    ]);
    expect(queries[1].params).toEqual(['S1', 'S2', 0n, '2026-06-02 00:00:00.000', 5n]);
  });

  it('should run no query without a shop, and keep the position', async () => {
    const { reader, queries } = primary([1], [1]);
    const slice = await readArrivals(SOURCE, [], query({ afterId: '7' }), reader);
    expect(slice).toEqual({ rows: [], position: '7', caughtUp: true });
    expect(queries).toHaveLength(0);
  });
});
