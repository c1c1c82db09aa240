import { SeedArgsError, formatSeedSummary, parseSeedArgs } from './seed-cli-args';
import type { SeedIds } from './business-data.types';
import type { SeedSummary } from './business-data.writer';
import { BATCH_KEYS, type BatchKey } from './bulk-insert';
import { ID_KEYS } from './seed-tables';

describe(parseSeedArgs.name, () => {
  it('should read every option', () => {
    const argv = [
      '--shops',
      '5',
      '--days',
      '60',
      '--sales-per-day',
      '40',
      '--seed',
      '7',
      '--start',
      '2026-01-01',
    ];
    expect(parseSeedArgs(argv)).toEqual({
      help: false,
      options: { shops: 5, days: 60, salesPerDay: 40, seed: 7, startDate: '2026-01-01' },
    });
  });

  it('should apply defaults and leave the start date to the database', () => {
    expect(parseSeedArgs([])).toEqual({
      help: false,
      options: { shops: 5, days: 30, salesPerDay: 40, seed: 42 },
    });
  });

  it('should accept --help and -h', () => {
    expect(parseSeedArgs(['--help'])).toEqual({ help: true });
    expect(parseSeedArgs(['-h'])).toEqual({ help: true });
  });

  it('should accept a fractional average of sales per day', () => {
    const command = parseSeedArgs(['--sales-per-day', '12.5']);
    expect(command.help ? null : command.options.salesPerDay).toBe(12.5);
  });

  it.each([
    [['--shops', 'x'], /--shops must be an integer/],
    [['--shops', '0'], /--shops must be an integer from 1/],
    [['--days', '-3'], /--days|argument missing|ambiguous/],
    [['--sales-per-day', '1e9'], /--sales-per-day must be a number/],
    [['--seed', '4294967296'], /--seed must be an integer/],
    [['--start', '2026-02-30'], /--start must be a date/],
    [['--bogus'], /Unknown option/],
    [['--shops'], /argument missing/],
    [['extra'], /positional/i],
  ])('should reject %j with a clear message', (argv, message) => {
    expect(() => parseSeedArgs(argv)).toThrow(SeedArgsError);
    expect(() => parseSeedArgs(argv)).toThrow(message);
  });
});

describe(formatSeedSummary.name, () => {
  it('should print the counts per table and the rate', () => {
    // Every table of the catalogue counts; these have rows.
    const ids = (id: string) =>
      Object.fromEntries(ID_KEYS.map((key) => [key, id])) as SeedIds<string>;
    const summary: SeedSummary = {
      ...(Object.fromEntries(BATCH_KEYS.map((key) => [key, 0])) as Record<BatchKey, number>),
      database: 'sqlite',
      shopCodes: ['SHOP001', 'SHOP002'],
      firstDate: '2026-01-01',
      lastDate: '2026-01-31',
      shops: 2,
      registers: 6,
      sales: 1000,
      lines: 2600,
      payments: 1100,
      cashMovements: 292,
      totalRows: 5000,
      firstIds: ids('1'),
      nextIds: { ...ids('1'), sales: '1001', payments: '1101', cashMovements: '293' },
      elapsedMs: 2000,
    };
    const text = formatSeedSummary(summary);
    expect(text).toContain('SHOP001, SHOP002');
    expect(text).toMatch(/pos_sales\s+1,000/);
    expect(text).toMatch(/5,000 rows in 2\.0 s \(2,500 rows\/s\)/);
    expect(text).toContain('  next ids: sale 1001, payment 1101, cash movement 293');
    const lines = text.split('\n').map((line) => line.trim().split(/\s+/).slice(0, 2));
    expect(lines.slice(0, 7)).toEqual([
      ['Seeded', 'sqlite:'],
      ['bo_shops', '2'],
      ['pos_registers', '6'],
      ['pos_sales', '1,000'],
      ['pos_sale_lines', '2,600'],
      ['pos_payments', '1,100'],
      ['pos_cash_movements', '292'],
    ]);
    expect(lines.slice(-2)).toEqual([
      ['total', '5,000'],
      ['next', 'ids:'],
    ]);
  });
});
