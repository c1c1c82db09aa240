import { ProblemException } from '../common/errors/problem';
import { parseReportQuery, REPORT_QUERY } from './report-query';

function problemOf(raw: Record<string, string | string[]>): ProblemException {
  try {
    parseReportQuery(raw);
  } catch (error) {
    if (error instanceof ProblemException) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe(parseReportQuery.name, () => {
  it('should read From and To into the stored form, names case-insensitive', () => {
    expect(
      parseReportQuery({ from: '2026-03-01', TO: '2026-03-08T12:30', shopcode: 'S1' }),
    ).toEqual({
      shopCode: 'S1',
      from: '2026-03-01 00:00:00.000',
      to: '2026-03-08 12:30:00.000',
      businessDates: null,
    });
  });

  it('should accept the documented examples, sent together as a tool sends them', () => {
    const examples = Object.fromEntries(
      Object.entries(REPORT_QUERY).map(([name, p]) => [name, String(p.example)]),
    );
    expect(parseReportQuery(examples)).toEqual({
      shopCode: 'SHOP001',
      from: '2026-03-01 00:00:00.000',
      to: '2026-04-01 00:00:00.000',
      businessDates: null,
    });
  });

  it('should read business dates instead, their midnights as the period', () => {
    const dates = { BusinessDateFrom: '2026-03-28', BusinessDateTo: '2026-04-28' };
    expect(parseReportQuery(dates)).toEqual({
      shopCode: null,
      from: '2026-03-28 00:00:00.000',
      to: '2026-04-28 00:00:00.000',
      businessDates: { from: '2026-03-28', to: '2026-04-28' },
    });
    const longer = problemOf({ ...dates, BusinessDateTo: '2026-04-29' });
    expect(longer.errors).toEqual([
      { field: 'BusinessDateTo', message: 'must be at most 31 days after BusinessDateFrom' },
    ]);
  });

  it('should accept exactly 31 days and refuse one millisecond more', () => {
    expect(parseReportQuery({ From: '2026-03-01', To: '2026-04-01' }).to).toBe(
      '2026-04-01 00:00:00.000',
    );
    const problem = problemOf({ From: '2026-03-01', To: '2026-04-01T00:00:00.001' });
    expect(problem.getStatus()).toBe(400);
    expect(problem.errors).toEqual([
      { field: 'To', message: 'must be at most 31 days after From' },
    ]);
  });

  it('should require From and To, naming each missing one', () => {
    expect(problemOf({}).errors?.map((e) => e.field)).toEqual(['From', 'To']);
    expect(problemOf({ From: '2026-03-01' }).errors?.map((e) => e.field)).toEqual(['To']);
  });

  it('should refuse zone designators, impossible dates, From after To and unknown names', () => {
    expect(problemOf({ From: '2026-03-01T00:00:00Z', To: '2026-03-02' }).errors?.[0].field).toBe(
      'From',
    );
    expect(problemOf({ From: '2026-02-30', To: '2026-03-02' }).errors?.[0].field).toBe('From');
    expect(problemOf({ From: '2026-03-02', To: '2026-03-01' }).errors?.[0].field).toBe('From');
    expect(problemOf({ From: '2026-03-01', To: '2026-03-02', Cursor: 'x' }).errors?.[0].field).toBe(
      'Cursor',
    );
  });
});
