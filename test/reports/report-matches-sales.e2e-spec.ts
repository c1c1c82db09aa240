import { parse } from 'csv-parse/sync';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { walkPages } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { asCsvRecord, REPORT, reportToken } from './report-fixtures';

interface SaleLine {
  lineNo: number;
  discount: string;
  net: string;
  tax: string;
  gross: string;
}
interface Sale {
  id: string;
  status: string;
  currency: string;
  lines: SaleLine[];
}

const PERIOD = { From: '2026-03-02T06:30:00', To: '2026-03-12T15:45:00.5' };
const cents = (amount: string): bigint => BigInt(amount.replace('.', ''));
const money = (value: bigint): string => {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/** The report's totals, computed independently from the pages of GET /sales. */
function totalsOfSales(sales: Sale[]) {
  const sums = new Map<string, { net: bigint; tax: bigint; discount: bigint; gross: bigint }>();
  const totals = { sales: 0, lines: 0, voidedSales: 0, voidedLines: 0 };
  for (const sale of sales) {
    if (sale.lines.length === 0) continue;
    if (sale.status === 'VOIDED') {
      totals.voidedSales++;
      totals.voidedLines += sale.lines.length;
      continue;
    }
    totals.sales++;
    totals.lines += sale.lines.length;
    const s = sums.get(sale.currency) ?? { net: 0n, tax: 0n, discount: 0n, gross: 0n };
    for (const l of sale.lines) {
      s.net += cents(l.net);
      s.tax += cents(l.tax);
      s.discount += cents(l.discount);
      s.gross += cents(l.gross);
    }
    sums.set(sale.currency, s);
  }
  const byCurrency = [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, s]) => ({
      currency,
      net: money(s.net),
      tax: money(s.tax),
      discount: money(s.discount),
      gross: money(s.gross),
    }));
  return { ...totals, byCurrency };
}

describeEachDatabase('TransactionDetailReport: totals equal GET /sales, to the cent', (ctx) => {
  let api: TestApp;
  let shops: string[];
  let salesToken: string;

  beforeAll(async () => {
    const summary = await seedBusinessData(ctx.db.db, {
      seed: 20260301,
      shops: 2,
      days: 14,
      salesPerDay: 45,
      startDate: '2026-03-01',
    });
    shops = summary.shopCodes;
    salesToken = reportToken(shops);
    api = await startTestApp(ctx.db);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const salesOf = async (params: Record<string, string>): Promise<Sale[]> => {
    const pages = await walkPages<Sale>((cursor) => {
      const query = new URLSearchParams(cursor ? { Cursor: cursor } : { ...params, Limit: '500' });
      return http(api.baseUrl, `/api/v1.0/sales?${query.toString()}`, {
        headers: bearer(salesToken),
      });
    });
    return pages.flatMap((page) => page.data);
  };
  const reportOf = (params: Record<string, string>, headers: Record<string, string> = {}) => {
    const query = new URLSearchParams(params).toString();
    return http(api.baseUrl, `${REPORT}?${query}`, {
      headers: { ...bearer(reportToken(shops)), ...headers },
    });
  };

  it.each([['every claimed shop'], ['one shop']])(
    'should total exactly what the pages of GET /sales add up to, for %s',
    async (scope) => {
      const params = scope === 'one shop' ? { ...PERIOD, ShopCode: shops[1] } : PERIOD;
      const sales = await salesOf(params);
      const res = await reportOf(params);
      expect(res.status).toBe(200);
      expect(sales.length).toBeGreaterThan(300);
      expect(sales.some((s) => s.status === 'VOIDED')).toBe(true);
      expect(res.body.totals).toEqual(totalsOfSales(sales));
      const linesOfSales = sales.flatMap((s) => s.lines.map((l) => `${s.id}/${l.lineNo}`));
      const rows = res.body.rows.map(
        (r: { saleId: string; lineNo: number }) => `${r.saleId}/${r.lineNo}`,
      );
      expect(rows).toEqual(linesOfSales);
    },
  );

  it('should send the same rows as CSV, parsed back with a CSV parser', async () => {
    const json = await reportOf(PERIOD);
    const csv = await reportOf(PERIOD, { Accept: 'text/csv' });
    const parsed: Record<string, string>[] = parse(csv.text, { columns: true });
    expect(parsed).toHaveLength(json.body.rows.length);
    expect(parsed).toEqual(json.body.rows.map(asCsvRecord));
  });

  it('should stream the body (chunked, no Content-Length) in several pieces', async () => {
    const response = await fetch(
      `${api.baseUrl}${REPORT}?${new URLSearchParams(PERIOD).toString()}`,
      {
        headers: bearer(reportToken(shops)),
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = response.body!.getReader();
    let pieces = 0;
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces++;
      bytes += value.length;
    }
    expect(pieces).toBeGreaterThan(3);
    expect(bytes).toBeGreaterThan(1_000_000);
  });
});
