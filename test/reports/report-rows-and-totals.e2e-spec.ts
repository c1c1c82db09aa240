import { parse } from 'csv-parse/sync';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { asCsvRecord, getReport, insertReportSale, reportToken } from './report-fixtures';

const PERIOD = { From: '2026-03-01', To: '2026-03-08' };
const TRICKY = 'Café, "especial"\r\nsegunda línea — ñ €';

describeEachDatabase('TransactionDetailReport: rows and totals of a known period', (ctx) => {
  let api: TestApp;
  let shopA: string;
  let shopB: string;
  let shopC: string;

  beforeAll(async () => {
    const db = ctx.db.db;
    [shopA, shopB, shopC] = [await createShop(db), await createShop(db), await createShop(db)];
    const line = (net: string, tax: string, gross: string) => ({
      quantity: '1.0000',
      unitPrice: gross,
      net,
      tax,
      gross,
    });
    // At exactly From: included, first.
    await insertReportSale(db, {
      id: 105,
      shopCode: shopA,
      soldAt: '2026-03-01 00:00:00.000',
      lines: [line('0.10', '0.01', '0.11')],
      payments: [{ id: 1, method: 'CASH', amount: '0.11' }],
    });
    // Another shop, another currency, one millisecond before 101 and 102.
    await insertReportSale(db, {
      id: 100,
      shopCode: shopB,
      soldAt: '2026-03-02 09:59:59.999',
      currency: 'GBP',
      employeeCode: null,
      lines: [line('10.00', '2.00', '12.00')],
      payments: [{ id: 2, method: 'CARD', amount: '12.00' }],
    });
    await insertReportSale(db, {
      id: 101,
      shopCode: shopA,
      soldAt: '2026-03-02 10:00:00.000',
      customerCode: 'C000042',
      lines: [
        {
          itemCode: '8410000000017',
          description: 'Pan de barra',
          quantity: '2.0000',
          unitPrice: '1.2100',
          net: '2.00',
          tax: '0.42',
          gross: '2.42',
        },
        {
          itemCode: '8410000000024',
          description: TRICKY,
          quantity: '0.7350',
          unitPrice: '4.0816',
          discount: '0.50',
          taxRate: '10.00',
          net: '2.27',
          tax: '0.23',
          gross: '2.50',
        },
      ],
      payments: [
        { id: 3, method: 'CASH', amount: '1.00' },
        { id: 4, method: 'CARD', amount: '3.92' },
        { id: 5, method: 'CARD', amount: '0.00' },
      ],
    });
    // Same sold_at as 101: after it, by id.
    await insertReportSale(db, {
      id: 102,
      shopCode: shopA,
      soldAt: '2026-03-02 10:00:00.000',
      lines: [line('0.83', '0.17', '1.00')],
      payments: [{ id: 6, method: 'VOUCHER', amount: '1.00' }],
    });
    await insertReportSale(db, {
      id: 103,
      shopCode: shopA,
      soldAt: '2026-03-03 08:00:00.000',
      status: 'VOIDED',
      lines: [line('4.13', '0.87', '5.00'), line('4.13', '0.87', '5.00')],
    });
    await insertReportSale(db, {
      id: 104,
      shopCode: shopA,
      soldAt: '2026-03-04 12:00:00.000',
      kind: 'RETURN',
      lines: [
        { quantity: '-2.0000', unitPrice: '1.2100', net: '-2.00', tax: '-0.42', gross: '-2.42' },
      ],
      payments: [{ id: 7, method: 'CASH', amount: '-2.42' }],
    });
    // Outside: at exactly To, before From, in a shop outside the claims.
    for (const [id, shopCode, soldAt] of [
      [106, shopA, '2026-03-08 00:00:00.000'],
      [108, shopA, '2026-02-28 23:59:59.999'],
    ] as const) {
      await insertReportSale(db, { id, shopCode, soldAt, lines: [line('1.00', '0.21', '1.21')] });
    }
    await insertReportSale(db, {
      id: 107,
      shopCode: shopC,
      soldAt: '2026-03-02 10:00:00.000',
      lines: [line('1.00', '0.21', '1.21')],
    });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const report = (params: Record<string, string>, shops = [shopA, shopB]) =>
    getReport(api.baseUrl, reportToken(shops), params);

  it('should answer one row per sale line, in (soldAt, sale id, line) order, From inclusive and To exclusive', async () => {
    const res = await report(PERIOD);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.from).toBe('2026-03-01T00:00:00.000');
    expect(res.body.to).toBe('2026-03-08T00:00:00.000');
    expect(res.body.rows.map((r: Record<string, unknown>) => [r.saleId, r.lineNo])).toEqual([
      ['105', 1],
      ['100', 1],
      ['101', 1],
      ['101', 2],
      ['102', 1],
      ['103', 1],
      ['103', 2],
      ['104', 1],
    ]);
  });

  it('should carry the sale header, the line and the payment methods (distinct, sorted, "+") in each row', async () => {
    const res = await report(PERIOD);
    expect(res.body.rows[3]).toEqual({
      shopCode: shopA,
      registerCode: 'R1',
      saleId: '101',
      ticketNumber: 'R1-000101',
      kind: 'SALE',
      status: 'COMPLETED',
      businessDate: '2026-03-02',
      soldAt: '2026-03-02T10:00:00.000',
      employeeCode: 'E001',
      customerCode: 'C000042',
      currency: 'EUR',
      paymentMethods: 'CARD+CASH',
      lineNo: 2,
      itemCode: '8410000000024',
      description: TRICKY,
      quantity: '0.7350',
      unitPrice: '4.0816',
      discount: '0.50',
      taxRate: '10.00',
      net: '2.27',
      tax: '0.23',
      gross: '2.50',
    });
    const methods = Object.fromEntries(
      res.body.rows.map((r: Record<string, unknown>) => [r.saleId, r.paymentMethods]),
    );
    expect(methods).toEqual({
      '100': 'CARD',
      '101': 'CARD+CASH',
      '102': 'VOUCHER',
      '103': '',
      '104': 'CASH',
      '105': 'CASH',
    });
    expect(res.body.rows[1]).toMatchObject({ currency: 'GBP', employeeCode: null });
    expect(res.body.rows[7]).toMatchObject({ kind: 'RETURN', quantity: '-2.0000', gross: '-2.42' });
  });

  it('should total per currency in exact cents, counting VOIDED sales apart and out of the amounts', async () => {
    const res = await report(PERIOD);
    expect(res.body.totals).toEqual({
      sales: 5,
      lines: 6,
      voidedSales: 1,
      voidedLines: 2,
      byCurrency: [
        { currency: 'EUR', net: '3.20', tax: '0.41', discount: '0.50', gross: '3.61' },
        { currency: 'GBP', net: '10.00', tax: '2.00', discount: '0.00', gross: '12.00' },
      ],
    });
  });

  it('should narrow to ShopCode, and answer empty rows and zero totals for a shop outside the claims', async () => {
    const one = await report({ ...PERIOD, ShopCode: shopB });
    expect(one.body.rows.map((r: Record<string, unknown>) => r.saleId)).toEqual(['100']);
    for (const res of [
      await report({ ...PERIOD, ShopCode: shopC }),
      await report({ ...PERIOD, ShopCode: 'NO-SUCH-SHOP' }),
      await report(PERIOD, []),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        from: '2026-03-01T00:00:00.000',
        to: '2026-03-08T00:00:00.000',
        rows: [],
        totals: { sales: 0, lines: 0, voidedSales: 0, voidedLines: 0, byCurrency: [] },
      });
    }
  });

  it('should answer text/csv (RFC 4180, header row, UTF-8) that parses back to the same rows as JSON', async () => {
    const token = reportToken([shopA, shopB]);
    const json = await getReport(api.baseUrl, token, PERIOD);
    const csv = await getReport(api.baseUrl, token, PERIOD, { Accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="TransactionDetailReport_2026-03-01_2026-03-08.csv"',
    );
    expect(csv.text.startsWith('shopCode,registerCode,saleId,ticketNumber,kind,status,')).toBe(
      true,
    );
    expect(csv.text).toContain('"Café, ""especial""\r\nsegunda línea — ñ €"');
    expect(csv.text.endsWith('\r\n')).toBe(true);
    const parsed: Record<string, string>[] = parse(csv.text, { columns: true });
    expect(parsed).toEqual(json.body.rows.map(asCsvRecord));
  });

  it('should mark the report private and varying with Accept', async () => {
    const res = await report(PERIOD);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('vary')).toMatch(/Accept/);
  });
});
