import { decimal, localDateTime } from './sql-values';

describe(decimal.name, () => {
  it.each([
    ['12.50', 2, '12.50'],
    [12.5, 2, '12.50'],
    [0.1, 2, '0.10'],
    [-99999999.99, 2, '-99999999.99'],
    [12, 2, '12.00'],
    [0.735, 4, '0.7350'],
    ['-3', 2, '-3.00'],
    [BigInt(7), 2, '7.00'],
    [9999999999999.99, 2, '9999999999999.99'],
  ])('should write %p with scale %p as %p', (value, scale, expected) => {
    expect(decimal(value, scale)).toBe(expected);
  });
  it('should refuse NULL', () => {
    expect(() => decimal(null, 2)).toThrow();
  });
});

describe(localDateTime.name, () => {
  it('should write the stored form with a T', () => {
    expect(localDateTime('2026-03-01 10:15:30.250')).toBe('2026-03-01T10:15:30.250');
  });
});
