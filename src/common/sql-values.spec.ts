import fc from 'fast-check';
import { cents, decimal, fromCents, isScaledDecimal, localDateTime } from './sql-values';

describe(isScaledDecimal.name, () => {
  const byRegExp = (value: string, scale: number) =>
    /^-?\d+\.\d+$/.test(value) && value.split('.')[1].length === scale;

  it.each([
    ['12.50', 2, true],
    ['-3.00', 2, true],
    ['0.7350', 4, true],
    ['12.5', 2, false],
    ['12.500', 2, false],
    ['-.50', 2, false],
    ['.50', 2, false],
    ['12', 0, false],
    ['1e3.00', 2, false],
    ['--1.00', 2, false],
    ['', 2, false],
  ])('should tell whether %p has exactly %p fraction digits: %p', (value, scale, expected) => {
    expect(isScaledDecimal(value, scale)).toBe(expected);
  });

  it('should agree with the regular expression it replaces on any string', () => {
    const shaped = fc
      .tuple(
        fc.constantFrom('', '-'),
        fc.stringMatching(/^\d{0,4}$/),
        fc.stringMatching(/^\d{0,5}$/),
      )
      .map(([sign, whole, fraction]) => `${sign}${whole}.${fraction}`);
    const text = fc.oneof(shaped, fc.stringMatching(/^[-0-9.e ]{0,12}$/));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 5 }), (value, scale) => {
        expect(isScaledDecimal(value, scale)).toBe(byRegExp(value, scale));
      }),
      { numRuns: 2000 },
    );
  });
});

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

describe(cents.name, () => {
  it.each([
    ['12.50', 1250n],
    ['-0.05', -5n],
    ['-12.5', -1250n],
    ['7', 700n],
    [3.1, 310n],
  ])('should read %s as %s cents exactly', (value, expected) => {
    expect(cents(value)).toBe(expected);
  });

  it('should read back every amount fromCents writes, and refuse one that is not', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (amount) => {
        expect(cents(fromCents(amount))).toBe(amount);
      }),
    );
    expect(() => cents('12.345')).toThrow('not an amount');
  });
});
