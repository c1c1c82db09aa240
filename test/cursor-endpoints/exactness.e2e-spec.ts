import { describeEachDatabase } from '../support/describe-databases';
import { insertCashMovement, insertPayment, insertSale } from '../support/business-factories';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

/** 2^53 + 1: not representable as a JavaScript number. */
const BIG_ID = 9007199254740993n;

describeEachDatabase('Cursor endpoints: values exactly as stored', (ctx) => {
  let api: TestApp;
  let shop: string;
  let token: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    await insertSale(ctx.db.db, {
      id: 41n,
      shopCode: shop,
      soldAt: '2026-03-01 10:15:30.250',
      totalNet: '-99999999.99',
      totalTax: '0.10',
      totalDiscount: '0.00',
      totalGross: '-99999999.89',
      lines: [
        {
          quantity: '-1.0000',
          unitPrice: '0.1000',
          net: '0.10',
          tax: '0.00',
          gross: '0.10',
          taxRate: '0.00',
        },
        {
          quantity: '0.7350',
          unitPrice: '12.9900',
          discount: '1.25',
          net: '-99999999.99',
          tax: '0.10',
          gross: '-99999999.89',
          taxRate: '4.00',
        },
      ],
    });
    await insertSale(ctx.db.db, {
      id: BIG_ID,
      shopCode: shop,
      soldAt: '2026-03-01 10:15:30.250',
      kind: 'RETURN',
      originalSaleId: 41n,
      totalGross: '12.50',
    });
    await insertSale(ctx.db.db, {
      id: BIG_ID + 2n,
      shopCode: shop,
      soldAt: '2026-03-01 10:15:30.250',
    });
    await insertPayment(ctx.db.db, {
      id: BIG_ID,
      saleId: BIG_ID,
      shopCode: shop,
      paidAt: '2026-03-01 10:15:31.000',
      amount: '-3.00',
    });
    await insertCashMovement(ctx.db.db, {
      id: BIG_ID,
      shopCode: shop,
      movedAt: '2026-03-01 10:15:31.000',
      amount: '0.10',
      saleId: BIG_ID,
    });
    token = forgeToken({ claims: { sub: 'exact', shop_code: [shop] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (path: string) => http(api.baseUrl, path, { headers: bearer(token) });

  it('should write money with the column scale, quantities with 4 decimals and lines in order, exactly as stored', async () => {
    const res = await get(`/api/v1.0/sales?ShopCode=${shop}`);
    expect(res.body.data[0]).toEqual({
      id: '41',
      shopCode: shop,
      registerCode: 'R1',
      ticketNumber: 'T-41',
      kind: 'SALE',
      status: 'COMPLETED',
      businessDate: '2026-03-01',
      soldAt: '2026-03-01T10:15:30.250',
      // Europe/Madrid (the shop's zone), +01:00 in March.
      soldAtUtc: '2026-03-01T09:15:30.250Z',
      currency: 'EUR',
      totalNet: '-99999999.99',
      totalTax: '0.10',
      totalDiscount: '0.00',
      totalGross: '-99999999.89',
      employeeCode: 'E001',
      customerCode: null,
      originalSaleId: null,
      lines: [
        {
          lineNo: 1,
          itemCode: 'ITEM1',
          description: 'Item 1',
          quantity: '-1.0000',
          unitPrice: '0.1000',
          discount: '0.00',
          taxRate: '0.00',
          net: '0.10',
          tax: '0.00',
          gross: '0.10',
        },
        {
          lineNo: 2,
          itemCode: 'ITEM2',
          description: 'Item 2',
          quantity: '0.7350',
          unitPrice: '12.9900',
          discount: '1.25',
          taxRate: '4.00',
          net: '-99999999.99',
          tax: '0.10',
          gross: '-99999999.89',
        },
      ],
    });
    expect(res.text).toContain('"totalNet":"-99999999.99"');
  });

  it('should keep ids above 2^53 exact, as strings, in records, references and cursors', async () => {
    const first = await get(`/api/v1.0/sales?ShopCode=${shop}&Limit=2`);
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual(['41', BIG_ID.toString()]);
    expect(first.body.data[1]).toMatchObject({
      kind: 'RETURN',
      originalSaleId: '41',
      totalGross: '12.50',
    });
    const next = await get(`/api/v1.0/sales?Cursor=${first.body.nextCursor}`);
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual([(BIG_ID + 2n).toString()]);
    const payments = await get(`/api/v1.0/payments?ShopCode=${shop}`);
    // toMatchObject: these fields exactly; a field the record gains later is no edit here.
    expect(payments.body.data).toMatchObject([
      {
        id: BIG_ID.toString(),
        saleId: BIG_ID.toString(),
        shopCode: shop,
        registerCode: 'R1',
        paidAt: '2026-03-01T10:15:31.000',
        paidAtUtc: '2026-03-01T09:15:31.000Z',
        businessDate: '2026-03-01',
        method: 'CASH',
        amount: '-3.00',
        currency: 'EUR',
        cardBrand: null,
        reference: null,
      },
    ]);
    const cash = await get(`/api/v1.0/cash-movements?ShopCode=${shop}`);
    expect(cash.body.data).toMatchObject([
      {
        id: BIG_ID.toString(),
        shopCode: shop,
        registerCode: 'R1',
        movedAt: '2026-03-01T10:15:31.000',
        movedAtUtc: '2026-03-01T09:15:31.000Z',
        businessDate: '2026-03-01',
        kind: 'CASH_IN',
        amount: '0.10',
        currency: 'EUR',
        reason: null,
        employeeCode: 'E001',
        saleId: BIG_ID.toString(),
      },
    ]);
  });
});
