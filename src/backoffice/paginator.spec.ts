import { ProblemException } from '../common/errors/problem';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { CursorSecret } from '../common/pagination/cursor-secret';
import { callerClaims } from '../common/testing/caller.fixture';
import type { AppConfig } from '../config/app-config';
import { FEED } from './modes/feed.mode';
import { LIST } from './modes/list.mode';
import type { ModeQuery } from './modes/mode';
import { pagedEndpoint } from './paged-endpoint';
import { type ModeReader, readPage } from './paginator';
import { ReadAhead } from './read-ahead';
import { col, defineSource } from './source';

const cursors = new CursorCodec(new CursorSecret(Buffer.from('a-cursor-secret-for-unit-specs')));

const CALLER = callerClaims({ shopCodes: ['S2', 'S1'] });

const SOURCE = defineSource({
  table: 'things',
  columns: { id: col.id, at: col.text },
  time: 'at',
  arrivedAt: 'created_at',
});
const toRecord = (row: { id: string }) => ({ id: `#${row.id}` });
const THINGS = pagedEndpoint('things', LIST, SOURCE, toRecord);
const THINGS_FEED = pagedEndpoint('things', FEED, SOURCE, toRecord);

/** A reader scoped to a caller that answers `slice` and records the queries it was given. */
function scoped(slice: object, caller = CALLER) {
  const queries: ModeQuery[] = [];
  const reader = {
    caller,
    read: (_mode: unknown, _source: unknown, query: ModeQuery) => (
      queries.push(query),
      Promise.resolve(slice)
    ),
  } as unknown as ModeReader;
  return { queries, reader };
}

const rows = (...ids: number[]) => ids.map((id) => ({ id: String(id), at: 'T' }));

describe(readPage.name, () => {
  it('should read the parsed query through the scoped reader and answer the last page without a cursor', async () => {
    const { queries, reader } = scoped({ rows: rows(1, 2), next: null });
    const page = await readPage(THINGS, reader, { limit: '2', shopcode: 'S1' }, cursors);
    expect(page).toEqual({ data: [{ id: '#1' }, { id: '#2' }], nextCursor: null });
    expect(queries).toEqual([{ shopCode: 'S1', from: null, to: null, limit: 2, after: null }]);
  });

  it('should ask for 500 rows when no Limit is given', async () => {
    const { queries, reader } = scoped({ rows: [], next: null });
    await readPage(THINGS, reader, {}, cursors);
    expect(queries[0].limit).toBe(500);
  });

  it('should sign a cursor for the position the read stopped at, with the filters of the query', async () => {
    const next = { time: '2026-03-01 10:00:02.000', id: '9007199254740993' };
    const { reader } = scoped({ rows: rows(1, 2), next });
    const raw = { Limit: '2', ShopCode: 'S1', From: '2026-03-01' };
    const page = await readPage(THINGS, reader, raw, cursors);
    expect(page.data).toEqual([{ id: '#1' }, { id: '#2' }]);
    expect(cursors.decode(page.nextCursor as string)).toEqual({
      resource: 'things',
      subject: '7',
      shopCode: 'S1',
      from: '2026-03-01 00:00:00.000',
      to: null,
      afterTime: next.time,
      afterId: next.id,
    });
  });

  it('should continue from the position its cursor carries, with the filters of the cursor', async () => {
    const next = { time: '2026-03-01 10:00:01.000', id: '1' };
    const raw = { Limit: '1', ShopCode: 'S1', To: '2026-03-02' };
    const first = await readPage(THINGS, scoped({ rows: rows(1), next }).reader, raw, cursors);
    const { queries, reader } = scoped({ rows: rows(2), next: null });
    const second = await readPage(THINGS, reader, { Cursor: first.nextCursor as string }, cursors);
    expect(second).toEqual({ data: [{ id: '#2' }], nextCursor: null });
    expect(queries).toEqual([
      { shopCode: 'S1', from: null, to: '2026-03-02 00:00:00.000', limit: 500, after: next },
    ]);
  });

  it("should refuse another caller's cursor before reading anything", async () => {
    const next = { time: 't', id: '1' };
    const first = await readPage(THINGS, scoped({ rows: rows(1), next }).reader, {}, cursors);
    const { queries, reader } = scoped({ rows: rows(2), next: null }, { ...CALLER, userId: '8' });
    await expect(
      readPage(THINGS, reader, { Cursor: first.nextCursor as string }, cursors),
    ).rejects.toBeInstanceOf(ProblemException);
    expect(queries).toHaveLength(0);
  });

  it('should refuse a cursor of another resource, or of another mode, before reading anything', async () => {
    const next = { time: 't', id: '1' };
    const first = await readPage(THINGS, scoped({ rows: rows(1), next }).reader, {}, cursors);
    const others = pagedEndpoint('others', LIST, SOURCE, toRecord);
    const refused = async (read: (reader: ModeReader) => Promise<unknown>) => {
      const { queries, reader } = scoped({ rows: [], next: null, position: '0', caughtUp: true });
      await expect(read(reader)).rejects.toBeInstanceOf(ProblemException);
      expect(queries).toHaveLength(0);
    };
    const raw = { Cursor: first.nextCursor as string };
    await refused((reader) => readPage(others, reader, raw, cursors));
    await refused((reader) => readPage(THINGS_FEED, reader, raw, cursors));
  });

  it('should answer a feed page with a cursor of its position, never null, and caughtUp', async () => {
    const { queries, reader } = scoped({ rows: rows(4), position: '4', caughtUp: true });
    const raw = { ShopCode: 'S1', From: '2026-06-02' };
    const page = await readPage(THINGS_FEED, reader, raw, cursors);
    expect(page).toMatchObject({ data: [{ id: '#4' }], caughtUp: true });
    expect(queries).toEqual([
      { shopCode: 'S1', since: '2026-06-02 00:00:00.000', afterId: null, limit: 500, wait: 0 },
    ]);
    expect(cursors.decode(page.nextCursor)).toEqual({
      resource: 'things/feed',
      subject: '7',
      shopCode: 'S1',
      from: '2026-06-02 00:00:00.000',
      to: null,
      afterTime: '',
      afterId: '4',
    });
  });

  describe('with ReadAhead (decision 29.12)', () => {
    const config = { LIST_READ_AHEAD_MS: 1_000, LIST_READ_AHEAD_MAX_PAGES: 8 } as AppConfig;
    const at = (id: number) => ({ time: `2026-03-01 10:00:0${id}.000`, id: String(id) });
    /**
     * A reader that answers the list's reads with `slices` in turn and records their queries; the
     * check of a page read ahead (a mode whose read is neither the list's nor the feed's) answers `same`.
     */
    function reading(...slices: object[]) {
      const queries: ModeQuery[] = [];
      const checks: ModeQuery[] = [];
      let same = true;
      const reader = {
        caller: CALLER,
        read: (mode: { read: unknown }, _source: unknown, query: ModeQuery) => {
          if (mode.read !== LIST.read && mode.read !== FEED.read) {
            checks.push(query);
            return Promise.resolve({ rows: [], same });
          }
          queries.push(query);
          return Promise.resolve(slices.shift());
        },
      } as unknown as ModeReader;
      return { queries, checks, reader, changed: () => (same = false) };
    }

    /** The first page of a walk of S1 by pages of 1. */
    const firstOf = (ahead: ReadAhead) =>
      readPage(
        THINGS,
        scoped({ rows: rows(1), next: at(1) }).reader,
        { Limit: '1', ShopCode: 'S1' },
        cursors,
        ahead,
      );
    /** The page after `cursor`, read by `reader`. */
    const nextOf = (ahead: ReadAhead, reader: ModeReader, cursor: string | null) =>
      readPage(THINGS, reader, { Cursor: cursor as string, Limit: '1' }, cursors, ahead);

    it('should read the page its Link leads to ahead, for a walk in progress, and answer that request with it', async () => {
      const ahead = new ReadAhead(config);
      const first = await firstOf(ahead);
      // A first page (no Cursor) reads nothing ahead.
      expect(ahead.size).toBe(0);
      const { queries, reader } = reading(
        { rows: rows(2), next: at(2) },
        { rows: rows(3), next: at(3) },
      );
      const second = await nextOf(ahead, reader, first.nextCursor);
      expect(second.data).toEqual([{ id: '#2' }]);
      // The third page was read while the second was being answered.
      expect(queries).toHaveLength(2);
      expect(queries[1]).toEqual({ shopCode: 'S1', from: null, to: null, limit: 1, after: at(2) });
      expect(ahead.size).toBe(1);
      const { queries: none, checks, reader: unused } = reading({ rows: rows(4), next: null });
      const third = await readPage(
        THINGS,
        unused,
        { Cursor: second.nextCursor as string, limit: '1' },
        cursors,
        ahead,
      );
      expect(third.data).toEqual([{ id: '#3' }]);
      // Its own page was not read again; the only read is the fourth page's, ahead.
      expect(none).toEqual([{ shopCode: 'S1', from: null, to: null, limit: 1, after: at(3) }]);
      // It was served after one check of its own query (decision 29.13).
      expect(checks).toEqual([{ shopCode: 'S1', from: null, to: null, limit: 1, after: at(2) }]);
      expect(ahead.counts()).toMatchObject({ hits: 1, stale: 0, misses: 1 });
    });

    it('should read a page afresh when the check finds the page read ahead changed (decision 29.13)', async () => {
      const ahead = new ReadAhead(config);
      const first = await firstOf(ahead);
      const { reader } = reading({ rows: rows(2), next: at(2) }, { rows: rows(3), next: at(3) });
      const second = await nextOf(ahead, reader, first.nextCursor);
      const fresh = reading({ rows: rows(9), next: at(9) });
      fresh.changed();
      const third = await nextOf(ahead, fresh.reader, second.nextCursor);
      expect(third.data).toEqual([{ id: '#9' }]);
      // Read afresh (and its own next page read ahead after it).
      expect(fresh.queries[0]).toEqual({
        shopCode: 'S1',
        from: null,
        to: null,
        limit: 1,
        after: at(2),
      });
      expect(fresh.checks).toHaveLength(1);
      expect(ahead.counts()).toMatchObject({ hits: 0, stale: 1, misses: 1 });
    });

    it('should read nothing ahead after a last page, nor for a feed', async () => {
      const ahead = new ReadAhead(config);
      const first = await readPage(
        THINGS,
        scoped({ rows: rows(1), next: at(1) }).reader,
        {},
        cursors,
        ahead,
      );
      const { queries, reader } = reading({ rows: rows(2), next: null });
      await readPage(THINGS, reader, { Cursor: first.nextCursor as string }, cursors, ahead);
      expect(queries).toHaveLength(1);
      const feed = await readPage(
        THINGS_FEED,
        scoped({ rows: rows(4), position: '4', caughtUp: false }).reader,
        {},
        cursors,
        ahead,
      );
      const { queries: fed, reader: feeder } = reading({
        rows: rows(5),
        position: '5',
        caughtUp: false,
      });
      await readPage(THINGS_FEED, feeder, { Cursor: feed.nextCursor }, cursors, ahead);
      expect(fed).toHaveLength(1);
      expect(ahead.size).toBe(0);
      expect(ahead.counts()).toMatchObject({ hits: 0, misses: 1, skipped: 0 });
    });
  });
});
