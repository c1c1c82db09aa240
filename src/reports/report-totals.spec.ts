import { reportRow } from './testing/report-row.fixture';
import { ReportTotalsAccumulator } from './report-totals';

describe(ReportTotalsAccumulator.name, () => {
  it('should answer zero counts and no amounts for no rows', () => {
    expect(new ReportTotalsAccumulator().result()).toEqual({
      sales: 0,
      lines: 0,
      voidedSales: 0,
      voidedLines: 0,
      byCurrency: [],
    });
  });

  it('should count sales once and lines each, and sum amounts in exact cents', () => {
    const totals = new ReportTotalsAccumulator();
    totals.add(
      reportRow({ saleId: '1', net: '0.10', tax: '0.02', discount: '0.00', gross: '0.12' }),
    );
    totals.add(
      reportRow({ saleId: '1', net: '0.20', tax: '0.04', discount: '0.05', gross: '0.24' }),
    );
    totals.add(
      reportRow({ saleId: '2', net: '-0.30', tax: '-0.06', discount: '0.00', gross: '-0.36' }),
    );
    for (let i = 0; i < 1000; i++)
      totals.add(
        reportRow({ saleId: `x${i}`, net: '0.10', tax: '0.01', discount: '0.01', gross: '0.11' }),
      );
    expect(totals.result()).toEqual({
      sales: 1002,
      lines: 1003,
      voidedSales: 0,
      voidedLines: 0,
      byCurrency: [
        { currency: 'EUR', net: '100.00', tax: '10.00', discount: '10.05', gross: '110.00' },
      ],
    });
  });

  it('should count VOIDED sales and lines apart and leave them out of the amounts', () => {
    const totals = new ReportTotalsAccumulator();
    totals.add(reportRow({ saleId: '1' }));
    totals.add(reportRow({ saleId: '2', status: 'VOIDED', gross: '99.00' }));
    totals.add(reportRow({ saleId: '2', status: 'VOIDED', gross: '99.00' }));
    expect(totals.result()).toMatchObject({
      sales: 1,
      lines: 1,
      voidedSales: 1,
      voidedLines: 2,
      byCurrency: [{ currency: 'EUR', gross: '1.21' }],
    });
  });

  it('should sum each currency apart, sorted by currency code', () => {
    const totals = new ReportTotalsAccumulator();
    totals.add(reportRow({ saleId: '1', currency: 'GBP', gross: '2.00' }));
    totals.add(reportRow({ saleId: '2', currency: 'EUR', gross: '3.00' }));
    totals.add(reportRow({ saleId: '3', currency: 'GBP', gross: '-0.50' }));
    const result = totals.result();
    expect(result.byCurrency.map((c) => [c.currency, c.gross])).toEqual([
      ['EUR', '3.00'],
      ['GBP', '1.50'],
    ]);
    expect(result.sales).toBe(3);
  });
});
