import { canonicalRecord, dayDigest, EMPTY_DAY_CHECKSUM } from '../sync/digest/day-checksums';
import { DayClose, type SaleFacts, type SessionFacts } from './day-close';

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
  const ALL_DAY = new Map([['2026-03-01', { to: '2026-03-02 00:00:00.000' }]]);

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
    close.bound('sales', ALL_DAY);
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
    close.bound('sales', ALL_DAY);
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

  it("should leave out a record at or past its day's range end, one of another date, and any before its walk's ranges", () => {
    const close = new DayClose(['2026-03-01'], FIELDS);
    close.sale(sale('0', '2026-03-01'), '2026-03-01 09:00:00.000');
    close.bound('sales', new Map([['2026-03-01', { to: '2026-03-04 10:00:00.001' }]]));
    close.sale(sale('1', '2026-03-01'), '2026-03-04 10:00:00.000');
    close.sale(sale('2', '2026-03-01'), '2026-03-04 10:00:00.001');
    close.sale(sale('3', '2026-02-28'), '2026-03-01 01:00:00.000');
    expect(close.entries()[0].digests.sales.count).toBe(1);
  });

  it('should count every record of a day whose range is unbounded, and none of a day without one', () => {
    const close = new DayClose(['2026-03-01', '2026-03-02'], FIELDS);
    close.bound('cashMovements', new Map([['2026-03-01', { to: null }]]));
    close.movement({ id: '1', businessDate: '2026-03-01' }, '2026-03-09 10:00:00.000');
    close.movement({ id: '2', businessDate: '2026-03-02' }, '2026-03-02 10:00:00.000');
    close.passed('cashMovements', '2026-03-09 10:00:00.000');
    close.movement({ id: '3', businessDate: '2026-03-01' }, '2026-03-10 10:00:00.000');
    const [first, second] = close.entries();
    expect(first.digests.cashMovements.count).toBe(2);
    expect(second.digests.cashMovements.count).toBe(0);
  });

  it("should seal a day once the walk has passed its range's end, and keep the others open", () => {
    const close = new DayClose(['2026-03-01', '2026-03-02'], FIELDS);
    close.bound(
      'sales',
      new Map([
        ['2026-03-01', { to: '2026-03-01 10:00:00.001' }],
        ['2026-03-02', { to: '2026-03-05 01:00:00.001' }],
      ]),
    );
    close.sale(sale('1', '2026-03-01'), '2026-03-01 10:00:00.000');
    close.sale(sale('2', '2026-03-02'), '2026-03-02 10:00:00.000');
    close.passed('sales', '2026-03-02 10:00:00.000');
    // Sealed: a record of the first day now counts nowhere; the second still takes its late one.
    close.sale(sale('3', '2026-03-01'), '2026-03-01 10:00:00.000');
    close.sale(sale('4', '2026-03-02'), '2026-03-05 01:00:00.000');
    const [first, second] = close.entries();
    expect(first.digests.sales.count).toBe(1);
    expect(first.sales.completed).toBe(1);
    expect(second.digests.sales.count).toBe(2);
  });

  it("should span a day's cash to its sessions' latest count, and not at all while one is open", () => {
    const session = (id: string, closedAt: string | null): SessionFacts => ({
      id,
      businessDate: '2026-03-01',
      status: closedAt ? 'CLOSED' : 'OPEN',
      openingFloat: '100.00',
      expected: '100.00',
      counted: closedAt ? '100.00' : null,
      discrepancy: closedAt ? '0.00' : null,
      closedAt,
    });
    const close = new DayClose(['2026-03-01', '2026-03-02', '2026-03-03'], FIELDS);
    close.session(session('1', '2026-03-01T23:00:00'));
    close.session(session('2', '2026-03-04T01:30:00'));
    close.session({ ...session('3', null), businessDate: '2026-03-02' });
    expect(close.cashUntil('2026-03-01')).toBe('2026-03-04');
    expect(close.cashUntil('2026-03-02')).toBeNull();
    expect(close.cashUntil('2026-03-03')).toBe('2026-03-03');
    expect(close.cashUntil('2026-03-09')).toBeNull();
  });
});
