import { REPORT_COLUMNS } from './transaction-detail.row';
import { joinPaymentMethods, toReportRows } from './report-row.mapper';
import { reportRow, saleWithLines } from './testing/report-row.fixture';

describe(toReportRows.name, () => {
  it("should write one row per line, in line order, with the sale's fields and the columns' scales", () => {
    const rows = toReportRows(saleWithLines('9007199254740993', 2), 'CARD+CASH');
    expect(rows.map((r) => r.lineNo)).toEqual([1, 2]);
    // The fixtures agree: a line of the sale fixture is the row fixture, numbers formatted.
    expect(rows[1]).toEqual(
      reportRow({
        saleId: '9007199254740993',
        ticketNumber: 'R1-9007199254740993',
        paymentMethods: 'CARD+CASH',
        lineNo: 2,
        itemCode: 'ITEM2',
      }),
    );
    // The JSON keys come in the order of the CSV columns.
    expect(Object.keys(rows[0])).toEqual(REPORT_COLUMNS);
  });

  it('should write no row for a sale without lines', () => {
    expect(toReportRows(saleWithLines('1', 0), '')).toEqual([]);
  });
});

describe(joinPaymentMethods.name, () => {
  it('should join the distinct methods, sorted, with +', () => {
    expect(joinPaymentMethods(['CASH', 'CARD', 'CASH'])).toBe('CARD+CASH');
    expect(joinPaymentMethods([])).toBe('');
  });
});
