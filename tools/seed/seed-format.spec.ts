import {
  addDays,
  dayOfWeek,
  formatCents,
  formatDateTime,
  formatShopDateTime,
  formatE4,
  isIsoDate,
  parseScaled,
  roundDiv,
} from './seed-format';

describe('seed-format', () => {
  describe(roundDiv.name, () => {
    it('should round halves away from zero', () => {
      expect(roundDiv(5, 2)).toBe(3);
      expect(roundDiv(-5, 2)).toBe(-3);
      expect(roundDiv(7, 3)).toBe(2);
      expect(roundDiv(-7, 3)).toBe(-2);
      expect(roundDiv(183_015_000, 1_000_000)).toBe(183);
      expect(roundDiv(1_500_000, 1_000_000)).toBe(2);
      expect(roundDiv(0, 121)).toBe(0);
    });
  });

  describe(formatCents.name, () => {
    it('should write cents with two decimals and a sign', () => {
      expect(formatCents(1250)).toBe('12.50');
      expect(formatCents(-300)).toBe('-3.00');
      expect(formatCents(-5)).toBe('-0.05');
      expect(formatCents(0)).toBe('0.00');
      expect(formatCents(123_456_789)).toBe('1234567.89');
    });

    it('should refuse a non-integer amount', () => {
      expect(() => formatCents(1.5)).toThrow(RangeError);
    });
  });

  describe(formatE4.name, () => {
    it('should write ten-thousandths with four decimals', () => {
      expect(formatE4(7350)).toBe('0.7350');
      expect(formatE4(-20_000)).toBe('-2.0000');
      expect(formatE4(850)).toBe('0.0850');
    });
  });

  describe(parseScaled.name, () => {
    it('should read decimals back into integers', () => {
      expect(parseScaled('12.50', 2)).toBe(1250);
      expect(parseScaled('-0.05', 2)).toBe(-5);
      expect(parseScaled('12.5', 2)).toBe(1250);
      expect(parseScaled('7', 4)).toBe(70_000);
      expect(() => parseScaled('1.234', 2)).toThrow(RangeError);
    });
  });

  describe(formatDateTime.name, () => {
    it('should write YYYY-MM-DD HH:MM:SS.mmm with three fraction digits', () => {
      expect(formatDateTime('2026-03-01', 0)).toBe('2026-03-01 00:00:00.000');
      expect(formatDateTime('2026-03-01', 9 * 3_600_000 + 5 * 60_000 + 7_008)).toBe(
        '2026-03-01 09:05:07.008',
      );
      expect(formatDateTime('2026-03-01', 86_399_999)).toBe('2026-03-01 23:59:59.999');
      expect(() => formatDateTime('2026-03-01', 86_400_000)).toThrow(RangeError);
    });
  });

  describe(formatShopDateTime.name, () => {
    const H = 3_600_000;

    it("should write a time below 24 h as that date's, and later ones on the next date", () => {
      expect(formatShopDateTime('2026-03-01', 21 * H + 7, 'Europe/Madrid')).toBe(
        formatDateTime('2026-03-01', 21 * H + 7),
      );
      expect(formatShopDateTime('2026-03-01', 25.5 * H + 42, 'Europe/Madrid')).toBe(
        '2026-03-02 01:30:00.042',
      );
      expect(formatShopDateTime('2026-12-31', 24 * H, 'Atlantic/Canary')).toBe(
        '2027-01-01 00:00:00.000',
      );
      expect(() => formatShopDateTime('2026-03-01', 48 * H, 'Europe/Madrid')).toThrow(RangeError);
    });

    it('should skip the hour a spring-forward night loses (Madrid, 2026-03-29 02:00 to 03:00)', () => {
      expect(formatShopDateTime('2026-03-28', 25.5 * H, 'Europe/Madrid')).toBe(
        '2026-03-29 01:30:00.000',
      );
      expect(formatShopDateTime('2026-03-28', 26.5 * H, 'Europe/Madrid')).toBe(
        '2026-03-29 03:30:00.000',
      );
    });

    it('should show the hour a fall-back night repeats twice (Madrid 03:00 to 02:00, Lisbon 02:00 to 01:00)', () => {
      expect(formatShopDateTime('2026-10-24', 26.5 * H, 'Europe/Madrid')).toBe(
        '2026-10-25 02:30:00.000',
      );
      expect(formatShopDateTime('2026-10-24', 27.5 * H, 'Europe/Madrid')).toBe(
        '2026-10-25 02:30:00.000',
      );
      expect(formatShopDateTime('2026-10-24', 28 * H, 'Europe/Madrid')).toBe(
        '2026-10-25 03:00:00.000',
      );
      expect(formatShopDateTime('2026-10-24', 25.5 * H, 'Europe/Lisbon')).toBe(
        '2026-10-25 01:30:00.000',
      );
      expect(formatShopDateTime('2026-10-24', 26.5 * H, 'Europe/Lisbon')).toBe(
        '2026-10-25 01:30:00.000',
      );
    });
  });

  describe(addDays.name, () => {
    it('should add days across months, leap years and years', () => {
      expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
      expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
      expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
      expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
      expect(dayOfWeek('2026-01-01')).toBe(4);
    });
  });

  describe(isIsoDate.name, () => {
    it('should accept only real calendar dates', () => {
      expect(isIsoDate('2024-02-29')).toBe(true);
      expect(isIsoDate('2026-02-29')).toBe(false);
      expect(isIsoDate('2026-1-01')).toBe(false);
      expect(isIsoDate('2026-01-01T00:00:00')).toBe(false);
    });
  });
});
