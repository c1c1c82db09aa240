import { ProblemException } from './errors/problem';
import { parseLocalDateTime } from './local-date-time';

describe(parseLocalDateTime.name, () => {
  it.each([
    ['2026-03-01', '2026-03-01 00:00:00.000'],
    ['2026-03-01T10:15', '2026-03-01 10:15:00.000'],
    ['2026-03-01T10:15:30', '2026-03-01 10:15:30.000'],
    ['2026-03-01T10:15:30.25', '2026-03-01 10:15:30.250'],
    ['2026-03-01T10:15:30.250', '2026-03-01 10:15:30.250'],
    ['2026-03-01T10:15:30.2501', '2026-03-01 10:15:30.251'],
    ['2026-12-31T23:59:59.9999', '2027-01-01 00:00:00.000'],
    ['2024-02-29', '2024-02-29 00:00:00.000'],
  ])('should read %s as %s', (input, stored) => {
    expect(parseLocalDateTime('From', input)).toBe(stored);
  });

  it.each([
    '2026-03-01T00:00:00Z',
    '2026-03-01T00:00:00+01:00',
    '2026-03-01T00:00:00-0500',
    '2026-02-29',
    '2026-13-01',
    '2026-03-01T24:00',
    '2026-03-01T10:60',
    '2026-03-01 10:00:00',
    '26-03-01',
    '',
    '0999-01-01',
  ])('should refuse %s with a 400 naming the parameter', (input) => {
    let error: unknown;
    try {
      parseLocalDateTime('To', input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProblemException);
    expect((error as ProblemException).getStatus()).toBe(400);
    expect((error as ProblemException).errors?.[0].field).toBe('To');
  });
});
