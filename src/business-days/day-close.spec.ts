import { canonicalRecord, dayDigest, EMPTY_DAY_CHECKSUM } from '../common/pagination/day-checksums';
import { DayClose, type SaleFacts } from './day-close';

const FIELDS = { sales: ['id', 'totalGross'], payments: ['id'], cashMovements: ['id'] };

const sale = (id: string, businessDate: string, over: Partial<SaleFacts> = {}): SaleFacts => ({
  id,
  businessDate,
  kind: 'SALE',
  status: 'COMPLETED',
  totalGross: '12.10',
  totalNet: '10.00',
  totalTax: '2.10',
  totalDiscount: '0.00',
  lines: [{ taxRate: '21.00', net: '10.00', tax: '2.10', gross: '12.10' }],
  ...over,
});

describe(DayClose.name, () => {
  it('should give every date of the period, an empty one with zeros and the empty checksum', () => {
    const [day] = new DayClose(['2026-03-01'], FIELDS).entries();
    expect(day.businessDate).toBe('2026-03-01');
    expect(day.sales).toEqual({
      completed: 0,
      returns: 0,
      voided: 0,
      gross: '0.00',
      net: '0.00',
      tax: '0.00',
      discount: '0.00',
      taxRates: [],
    });
    expect(day.digests.sales).toEqual({ count: 0, checksum: EMPTY_DAY_CHECKSUM });
  });

  it('should digest a day in id order whatever the order the walk met its records', () => {
    const close = new DayClose(['2026-03-01'], FIELDS);
    close.sale(sale('10', '2026-03-01'), '2026-03-01 10:00:00.000');
    close.sale(sale('9', '2026-03-01'), '2026-03-01 11:00:00.000');
    const expected = dayDigest('2026-03-01', [
      canonicalRecord({ id: '9', totalGross: '12.10' }),
      canonicalRecord({ id: '10', totalGross: '12.10' }),
    ]);
    expect(close.entries()[0].digests.sales).toEqual({
      count: 2,
      checksum: expected.checksum,
    });
  });

  it('should count a void but sum only what was not voided, and returns apart', () => {
    const close = new DayClose(['2026-03-01'], FIELDS);
    const at = '2026-03-01 10:00:00.000';
    close.sale(sale('1', '2026-03-01'), at);
    close.sale(sale('2', '2026-03-01', { status: 'VOIDED' }), at);
    close.sale(
      sale('3', '2026-03-01', {
        kind: 'RETURN',
        totalGross: '-1.10',
        totalNet: '-1.00',
        totalTax: '-0.10',
        lines: [{ taxRate: '10.00', net: '-1.00', tax: '-0.10', gross: '-1.10' }],
      }),
      at,
    );
    const { sales } = close.entries()[0];
    expect(sales).toMatchObject({ completed: 1, returns: 1, voided: 1, gross: '11.00' });
    expect(sales.taxRates.map((r) => r.taxRate)).toEqual(['10.00', '21.00']);
  });

  it("should leave out a record before its date's midnight or after the next day's end, and one of another date", () => {
    const close = new DayClose(['2026-03-01'], FIELDS);
    close.sale(sale('1', '2026-03-01'), '2026-03-02 23:59:59.999');
    close.sale(sale('2', '2026-03-01'), '2026-03-03 00:00:00.000');
    close.sale(sale('3', '2026-02-28'), '2026-03-01 01:00:00.000');
    // Before its own midnight: outside the span, whichever day the period starts on.
    close.sale(sale('4', '2026-03-01'), '2026-02-28 23:00:00.000');
    expect(close.entries()[0].digests.sales.count).toBe(1);
  });

  it('should seal a day once the walk has passed its span, and keep the others open', () => {
    const close = new DayClose(['2026-03-01', '2026-03-02'], FIELDS);
    close.sale(sale('1', '2026-03-01'), '2026-03-01 10:00:00.000');
    close.sale(sale('2', '2026-03-02'), '2026-03-02 10:00:00.000');
    close.passed('sales', '2026-03-03 00:00:00.000');
    // The walk is past the first day's span only: the second day still takes its night.
    close.sale(sale('3', '2026-03-02'), '2026-03-03 01:00:00.000');
    const [first, second] = close.entries();
    expect(first.digests.sales.count).toBe(1);
    expect(second.digests.sales.count).toBe(2);
  });
});
