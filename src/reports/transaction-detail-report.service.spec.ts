import type { PageQuery } from '../sync/list/list.mode';
import { Wall } from '../wall/wall';
import type { PrimaryReader } from '../database/replicas/read-router';
import { ProblemException } from '../common/errors/problem';
import { callerClaims } from '../common/testing/caller.fixture';
import { saleWithLines } from './testing/report-row.fixture';
import { TransactionDetailReportService } from './transaction-detail-report.service';

const CALLER = callerClaims();
const PERIOD = { From: '2026-03-01', To: '2026-03-08' };

/** A wall of `chunks` chunks of 2 sales (3 lines each) that records what was asked. */
function fakeReaders(chunks: number) {
  const requests: PageQuery[] = [];
  const wall = {
    read: (_caller: unknown, _mode: unknown, _source: unknown, query: PageQuery) => {
      requests.push(query);
      const index = requests.length - 1;
      const [paid, unpaid] = [`${index * 2 + 1}`, `${index * 2 + 2}`];
      const methods = ['CASH', 'CARD', 'CASH'].map((method) => ({ sale_id: paid, method }));
      return Promise.resolve({
        rows: [
          { ...saleWithLines(paid, 3), payment_methods: methods },
          { ...saleWithLines(unpaid, 3), payment_methods: [] },
        ],
        next: index + 1 < chunks ? { time: `t${index}`, id: unpaid } : null,
      });
    },
  } as unknown as Wall;
  return { requests, service: new TransactionDetailReportService(wall) };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const piece of stream) text += String(piece);
  return text;
}

describe(TransactionDetailReportService.name, () => {
  it('should read the next chunk only when the reader has taken the previous one', async () => {
    const { requests, service } = fakeReaders(1000);
    const stream = (await service.open(CALLER, PERIOD, undefined)).getStream();
    expect(requests).toHaveLength(1);
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests.length).toBeLessThanOrEqual(4);
    stream.destroy();
  });

  it('should chain chunks by position and sum every line in the totals', async () => {
    const { requests, service } = fakeReaders(3);
    const body = JSON.parse(
      await readAll((await service.open(CALLER, PERIOD, undefined)).getStream()),
    );
    expect(requests.map((r) => r.after)).toEqual([
      null,
      { time: 't0', id: '2' },
      { time: 't1', id: '4' },
    ]);
    // Each chunk after the first starts its range at its position (SQLite's index range).
    expect(requests.map((r) => r.from)).toEqual(['2026-03-01 00:00:00.000', 't0', 't1']);
    expect(requests[0]).toEqual({
      shopCode: null,
      from: '2026-03-01 00:00:00.000',
      to: '2026-03-08 00:00:00.000',
      businessDates: null,
      after: null,
      limit: 250,
    });
    expect(body.rows).toHaveLength(18);
    expect(body.rows[0].paymentMethods).toBe('CARD+CASH');
    expect(body.rows[3].paymentMethods).toBe('');
    expect(body.totals).toMatchObject({ sales: 6, lines: 18 });
    expect(body.totals.byCurrency[0].gross).toBe('21.78');
  });

  it('should not read the database for a shop outside the claims', async () => {
    const queries: string[] = [];
    const db = { query: (sql: string) => (queries.push(sql), Promise.resolve([])) };
    const wall = new Wall({
      reader: () => db,
      withPrimary: <T>(work: (primary: PrimaryReader) => Promise<T>) =>
        work({ ...db, uncommitted: null }),
    });
    const file = await new TransactionDetailReportService(wall).open(
      CALLER,
      { ...PERIOD, ShopCode: 'OTHER' },
      undefined,
    );
    const body = JSON.parse(await readAll(file.getStream()));
    expect(queries).toHaveLength(0);
    expect(body.rows).toEqual([]);
    expect(body.totals).toMatchObject({ sales: 0, lines: 0, byCurrency: [] });
  });

  it('should answer CSV with a file name when Accept asks for text/csv', async () => {
    const { service } = fakeReaders(1);
    const file = await service.open(CALLER, { ...PERIOD, ShopCode: 'SHOP1' }, 'text/csv');
    expect(file.getHeaders()).toMatchObject({
      type: 'text/csv; charset=utf-8; header=present',
      disposition: 'attachment; filename="TransactionDetailReport_SHOP1_2026-03-01_2026-03-08.csv"',
    });
    expect((await readAll(file.getStream())).split('\r\n')).toHaveLength(1 + 6 + 1);
  });

  it('should refuse bad parameters before reading anything', async () => {
    const { requests, service } = fakeReaders(1);
    await expect(service.open(CALLER, { From: '2026-03-01' }, undefined)).rejects.toBeInstanceOf(
      ProblemException,
    );
    expect(requests).toHaveLength(0);
  });
});
