import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createConnection } from 'mysql2';

/**
 * The floor of a first copy (issue 55, item 4): one shop's sales with their lines, payments and
 * cash movements of a period, streamed from MariaDB with mysql2 into an NDJSON file, one row a
 * line (a sale with its lines), no HTTP, no mapping to the API's records, no checksum. What the
 * client's bulk read is measured against. Returns the records written (lines not counted).
 */
export async function rawStream(input: {
  databaseUrl: string;
  shop: string;
  /** Shop-local date-times without zone (`2026-01-01`), From inclusive, To exclusive. */
  from: string;
  to: string;
  file: string;
}): Promise<number> {
  const connection = createConnection({
    uri: input.databaseUrl,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  });
  const out = createWriteStream(input.file);
  let records = 0;
  const period = [input.shop, input.from, input.to];
  try {
    // A sale and its lines are consecutive rows: one line of output a sale, its lines in it.
    let sale: Record<string, unknown> | null = null;
    let lines: unknown[] = [];
    const flush = (push: (text: string) => void) => {
      if (sale) push(`${JSON.stringify({ ...sale, lines })}\n`);
      sale = null;
      lines = [];
    };
    const sales = new Transform({
      objectMode: true,
      writableObjectMode: true,
      readableObjectMode: false,
      transform(row: Record<string, unknown>, _encoding, done) {
        const { line_no, item_code, description, quantity, unit_price, discount, ...header } = row;
        const { tax_rate, net, tax, gross, ...own } = header;
        if (sale?.id !== own.id) {
          flush((text) => this.push(text));
          sale = own;
          records++;
        }
        if (line_no !== null) {
          lines.push({
            line_no,
            item_code,
            description,
            quantity,
            unit_price,
            discount,
            tax_rate,
            net,
            tax,
            gross,
          });
        }
        done();
      },
      flush(done) {
        flush((text) => this.push(text));
        done();
      },
    });
    await pipeline(
      connection
        .query(
          'SELECT s.*, l.line_no, l.item_code, l.description, l.quantity, l.unit_price, ' +
            'l.discount, l.tax_rate, l.net, l.tax, l.gross FROM pos_sales s ' +
            'LEFT JOIN pos_sale_lines l ON l.sale_id = s.id ' +
            'WHERE s.shop_code = ? AND s.sold_at >= ? AND s.sold_at < ? ' +
            'ORDER BY s.sold_at, s.id, l.line_no',
          period,
        )
        .stream(),
      sales,
      out,
      { end: false },
    );
    for (const [table, at] of [
      ['pos_payments', 'paid_at'],
      ['pos_cash_movements', 'moved_at'],
    ]) {
      await pipeline(
        connection
          .query(
            `SELECT * FROM ${table} WHERE shop_code = ? AND ${at} >= ? AND ${at} < ? ORDER BY ${at}, id`,
            period,
          )
          .stream(),
        new Transform({
          writableObjectMode: true,
          transform(row: unknown, _encoding, done) {
            records++;
            done(null, `${JSON.stringify(row)}\n`);
          },
        }),
        out,
        { end: false },
      );
    }
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
    await new Promise<void>((resolve) => connection.end(() => resolve()));
  }
  return records;
}
