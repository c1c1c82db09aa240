import type { KeysetPosition } from '../sync/list/list.mode';
import { type ReportChunk, reportPieces } from './report-pieces';
import type { ReportTotalsDto } from './dto/report-totals.dto';
import type { ReportWriter } from './report-writers';
import { saleWithLines } from './testing/report-row.fixture';

/** A writer whose pieces say what they hold: "open", "rows:<sale ids>", "close:<sales>/<lines>". */
const writer: ReportWriter = {
  contentType: 'text/plain',
  open: () => 'open',
  rows: (rows) => (rows.length ? `rows:${[...new Set(rows.map((r) => r.saleId))].join(',')}` : ''),
  close: (totals: ReportTotalsDto) => `close:${totals.sales}/${totals.lines}`,
};

/** Chunk `index` of `count`: sales 2i+1 and 2i+2 (or none), each of two lines. */
function chunk(index: number, count: number, empty = false): ReportChunk {
  const ids = empty ? [] : [`${index * 2 + 1}`, `${index * 2 + 2}`];
  return {
    sales: ids.map((id) => saleWithLines(id, 2)),
    paymentMethods: new Map(),
    next: index + 1 < count ? { time: `t${index}`, id: `${index * 2 + 2}` } : null,
  };
}

/** A reader of the chunks after the first, recording the positions it was asked for. */
function reader(count: number, emptyAt = -1) {
  const asked: KeysetPosition[] = [];
  const read = (after: KeysetPosition): Promise<ReportChunk> => {
    asked.push(after);
    return Promise.resolve(chunk(asked.length, count, asked.length === emptyAt));
  };
  return { asked, read };
}

async function all(pieces: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

describe(reportPieces.name, () => {
  it('should write the opening, each chunk in order, then the totals of every chunk', async () => {
    const { asked, read } = reader(3);
    await expect(all(reportPieces(writer, chunk(0, 3), read))).resolves.toEqual([
      'open',
      'rows:1,2',
      'rows:3,4',
      'rows:5,6',
      'close:6/12',
    ]);
    expect(asked).toEqual([
      { time: 't0', id: '2' },
      { time: 't1', id: '4' },
    ]);
  });

  it('should read a chunk only once the reader has taken the pieces before it', async () => {
    const { asked, read } = reader(1000);
    const pieces = reportPieces(writer, chunk(0, 1000), read);
    await pieces.next(); // open
    await pieces.next(); // the first chunk, read before the response started
    expect(asked).toHaveLength(0);
    await pieces.next();
    expect(asked).toHaveLength(1);
    await pieces.return(undefined);
    expect(asked).toHaveLength(1);
  });

  it('should write nothing for a chunk without rows, and go on to the next', async () => {
    const { read } = reader(3, 1);
    await expect(all(reportPieces(writer, chunk(0, 3), read))).resolves.toEqual([
      'open',
      'rows:1,2',
      'rows:5,6',
      'close:4/8',
    ]);
  });

  it('should write only the opening and zero totals for an empty first chunk', async () => {
    const { asked, read } = reader(1);
    await expect(all(reportPieces(writer, chunk(0, 1, true), read))).resolves.toEqual([
      'open',
      'close:0/0',
    ]);
    expect(asked).toHaveLength(0);
  });

  it('should let other work run between chunks', async () => {
    let otherWorkRan = false;
    const read = (after: KeysetPosition): Promise<ReportChunk> => {
      expect(otherWorkRan).toBe(true);
      return Promise.resolve({ ...chunk(1, 2), next: null, sales: [saleWithLines(after.id, 1)] });
    };
    const pieces = reportPieces(writer, chunk(0, 2), read);
    await pieces.next();
    await pieces.next();
    setImmediate(() => (otherWorkRan = true));
    await expect(pieces.next()).resolves.toEqual({ value: 'rows:2', done: false });
  });

  it('should end without totals when a later read fails: the response is cut short', async () => {
    const read = (): Promise<ReportChunk> => Promise.reject(new Error('connection lost'));
    const pieces = reportPieces(writer, chunk(0, 2), read);
    const taken: string[] = [];
    await expect(
      (async () => {
        for await (const piece of pieces) taken.push(piece);
      })(),
    ).rejects.toThrow('connection lost');
    expect(taken).toEqual(['open', 'rows:1,2']);
  });
});
