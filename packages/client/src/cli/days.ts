import type { PosReadClient } from '../client.js';
import type { BusinessDay } from '../types.js';
import { openOutput } from './export.js';
import { type CsvStyle, RecordWriter } from './formats.js';
import { type Io, UsageError, write } from './io.js';
import { forOutput, isTerminal } from './terminal-text.js';

/** How `pos-read days` writes the close: a table for a person, CSV or the answer's JSON. */
export type DaysFormat = 'table' | 'csv' | 'json';

export interface DaysOptions {
  shopCode: string;
  from: string;
  to: string;
  /** Absent: a table on a terminal, CSV otherwise. */
  format?: DaysFormat;
  style: CsvStyle;
  out?: string;
}

type Row = Record<string, string | number | null>;

/** The methods and tax rates any day of the period has, sorted: the CSV's columns. */
function keysOf(days: BusinessDay[]) {
  const methods = new Set(days.flatMap((d) => d.payments.methods.map((m) => m.method)));
  const rates = new Set(days.flatMap((d) => d.sales.taxRates.map((r) => r.taxRate)));
  return { methods: [...methods].sort(), rates: [...rates].sort((a, b) => Number(a) - Number(b)) };
}

/**
 * One CSV row a business date: every figure of the close under its path in the answer
 * (`sales.gross`, `payments.CASH.amount`, `sales.taxRate.21.00.tax`, `digests.sales.checksum`),
 * a method or rate the day lacks as 0 or 0.00, so every row has the period's columns.
 */
function flatten(day: BusinessDay, keys: ReturnType<typeof keysOf>): Row {
  const { sales, payments, cash, digests } = day;
  const row: Row = {
    businessDate: day.businessDate,
    'sales.completed': sales.completed,
    'sales.returns': sales.returns,
    'sales.voided': sales.voided,
    'sales.gross': sales.gross,
    'sales.net': sales.net,
    'sales.tax': sales.tax,
    'sales.discount': sales.discount,
  };
  for (const rate of keys.rates) {
    const at = sales.taxRates.find((r) => r.taxRate === rate);
    row[`sales.taxRate.${rate}.net`] = at?.net ?? '0.00';
    row[`sales.taxRate.${rate}.tax`] = at?.tax ?? '0.00';
    row[`sales.taxRate.${rate}.gross`] = at?.gross ?? '0.00';
  }
  row['payments.count'] = payments.count;
  row['payments.amount'] = payments.amount;
  for (const method of keys.methods) {
    const of = payments.methods.find((m) => m.method === method);
    row[`payments.${method}.count`] = of?.count ?? 0;
    row[`payments.${method}.amount`] = of?.amount ?? '0.00';
  }
  for (const [name, value] of Object.entries(cash)) row[`cash.${name}`] = value;
  for (const [resource, digest] of Object.entries(digests)) {
    row[`digests.${resource}.count`] = digest.count;
    row[`digests.${resource}.checksum`] = digest.checksum;
  }
  return row;
}

const TABLE: Array<[string, (d: BusinessDay) => string | number | null]> = [
  ['business date', (d) => d.businessDate],
  ['sales', (d) => d.sales.completed],
  ['returns', (d) => d.sales.returns],
  ['voided', (d) => d.sales.voided],
  ['gross', (d) => d.sales.gross],
  ['net', (d) => d.sales.net],
  ['tax', (d) => d.sales.tax],
  ['payments', (d) => d.payments.amount],
  ['sessions', (d) => d.cash.sessions],
  ['open', (d) => d.cash.open],
  ['expected', (d) => d.cash.expected],
  ['counted', (d) => d.cash.counted],
  ['over/short', (d) => d.cash.discrepancy],
];

/** The close as a table for a person: one line a day, figures right-aligned. */
function table(days: BusinessDay[]): string {
  const cells = [
    TABLE.map(([title]) => title),
    ...days.map((d) => TABLE.map(([, value]) => String(value(d) ?? '-'))),
  ];
  const widths = TABLE.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
        .join('  '),
    )
    .join('\n')
    .concat('\n');
}

/**
 * `pos-read days --shop S --from D1 --to D2`: the shop's day close, every business date of the
 * period (GET /business-days), as a table on a terminal, CSV otherwise, or the answer's JSON.
 */
export async function daysCommand(client: PosReadClient, io: Io, o: DaysOptions): Promise<void> {
  const answer = await client.businessDays.close({
    shopCode: o.shopCode,
    from: o.from,
    to: o.to,
    signal: io.signal,
  });
  const format = o.format ?? (isTerminal(io.stdout) && !o.out ? 'table' : 'csv');
  if (format !== 'csv' && (o.style.excel || o.style.decimalComma))
    throw new UsageError('--csv-excel and --decimal-comma are for CSV: add --format csv');
  let text: string;
  if (format === 'json') text = JSON.stringify(answer) + '\n';
  else if (format === 'table') text = table(answer.data);
  else {
    const keys = keysOf(answer.data);
    const rows = answer.data.map((day) => flatten(day, keys));
    const writer = new RecordWriter('csv', true, [], o.style);
    text = writer.page(rows);
  }
  if (o.out) {
    const output = await openOutput(o.out, false);
    try {
      await output.file.writeFile(text);
      await output.commit();
    } finally {
      await output.abandon(false);
    }
  } else await write(io.stdout, forOutput(io.stdout, text));
}
