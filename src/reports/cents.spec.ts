import { formatCents, toCents } from './cents';

describe(toCents.name, () => {
  it('should read two-decimal amounts as exact cents', () => {
    expect(toCents('12.50')).toBe(1250n);
    expect(toCents('0.00')).toBe(0n);
    expect(toCents('-0.05')).toBe(-5n);
    expect(toCents('-3.10')).toBe(-310n);
    expect(toCents('9999999999999.99')).toBe(999999999999999n);
  });

  it('should refuse anything but a two-decimal string', () => {
    for (const bad of ['12.5', '12', '1e3', '12.505', ' 1.00', '--1.00', '']) {
      expect(() => toCents(bad)).toThrow('not a two-decimal amount');
    }
  });
});

describe(formatCents.name, () => {
  it('should write cents with two decimals and a sign only when negative', () => {
    expect(formatCents(1250n)).toBe('12.50');
    expect(formatCents(0n)).toBe('0.00');
    expect(formatCents(-5n)).toBe('-0.05');
    expect(formatCents(-100n)).toBe('-1.00');
    expect(formatCents(7n)).toBe('0.07');
  });

  it('should sum exactly where floats drift', () => {
    const amounts = Array.from({ length: 1000 }, () => '0.10');
    const floatSum = amounts.reduce((sum, a) => sum + Number(a), 0);
    expect(floatSum).not.toBe(100);
    const exact = amounts.reduce((sum, a) => sum + toCents(a), 0n);
    expect(formatCents(exact)).toBe('100.00');
  });

  it('should round-trip beyond the range of exact doubles', () => {
    const big = '90071992547409.93';
    expect(formatCents(toCents(big) + toCents(big))).toBe('180143985094819.86');
  });
});
