import { MAX_SALES_PER_DAY, validateBusinessDataOptions } from './business-data.options';

const OPTIONS = { seed: 1, shops: 2, days: 1, salesPerDay: 9, startDate: '2026-01-01' };

describe(validateBusinessDataOptions.name, () => {
  it('should accept valid options, a shop count or a list of shops', () => {
    expect(() => validateBusinessDataOptions(OPTIONS)).not.toThrow();
    expect(() =>
      validateBusinessDataOptions({ ...OPTIONS, shops: [{ code: 'A' }, { code: 'B' }] }),
    ).not.toThrow();
  });

  it('should list every problem in one RangeError', () => {
    const options = {
      ...OPTIONS,
      seed: -1,
      days: 0,
      salesPerDay: MAX_SALES_PER_DAY + 1,
      startDate: '2026-02-30',
      shops: 10_000,
    };

    expect(() => validateBusinessDataOptions(options)).toThrow(
      new RangeError(
        'Invalid seed options: seed must be an integer from 0 to 4294967295; ' +
          'days must be an integer from 1 to 36600; salesPerDay must be from 0 to 5000; ' +
          'startDate must be a date YYYY-MM-DD; shops must be an integer from 1 to 9999',
      ),
    );
  });

  it('should refuse an empty list of shops, and codes repeated, too long or without registers', () => {
    expect(() => validateBusinessDataOptions({ ...OPTIONS, shops: [] })).toThrow(
      'shops must not be empty',
    );
    expect(() =>
      validateBusinessDataOptions({
        ...OPTIONS,
        shops: [
          { code: 'A' },
          { code: 'A' },
          { code: 'WAY-TOO-LONG-SHOP-CODE' },
          { code: 'C', registers: [] },
        ],
      }),
    ).toThrow(
      'shop code repeated: A; shop code must be 1-16 characters: WAY-TOO-LONG-SHOP-CODE; ' +
        'shop C has no registers',
    );
  });

  it("should take a shop's hours past midnight, and refuse hours that would overlap the next day", () => {
    const shop = (open: number, close: number) => ({
      ...OPTIONS,
      shops: [{ code: 'BAR', hours: { open, close } }],
    });
    expect(() => validateBusinessDataOptions(shop(20, 28))).not.toThrow();
    for (const [open, close] of [
      [0, 8],
      [20, 22],
      [20, 44],
      [24, 30],
      [9.5, 21],
    ]) {
      expect(() => validateBusinessDataOptions(shop(open, close))).toThrow(
        'shop BAR hours: open 1 to 23, close 3 to 23 hours after open',
      );
    }
  });
});
