import {
  columnsOf,
  PARQUET_TABLES,
  type ParquetColumn,
  ParquetValueError,
  parquetValue,
  parquetValues,
  schemaElement,
} from '../../packages/client/src/parquet/columns';

const money: ParquetColumn = {
  field: 'amount',
  type: { kind: 'decimal', precision: 15, scale: 2 },
  nullable: false,
};
const quantity: ParquetColumn = {
  field: 'quantity',
  type: { kind: 'decimal', precision: 15, scale: 4 },
  nullable: false,
};
const of = (field: string, table: keyof typeof PARQUET_TABLES = 'sales'): ParquetColumn =>
  PARQUET_TABLES[table].find((c) => c.field === field) as ParquetColumn;

describe('the Parquet values of an export (issue 43, item 4)', () => {
  it('should write decimals exactly, as their unscaled integer at the column scale', () => {
    expect(parquetValue(money, '12.50')).toBe(1250n);
    expect(parquetValue(money, '-0.05')).toBe(-5n);
    expect(parquetValue(money, '7')).toBe(700n);
    expect(parquetValue(money, '9999999999999.99')).toBe(999999999999999n);
    expect(parquetValue(quantity, '-1.2500')).toBe(-12500n);
  });

  it('should refuse a decimal it cannot hold exactly, naming the field', () => {
    expect(() => parquetValue(money, '1.005')).toThrow(/amount "1.005": more than 2 decimals/);
    expect(() => parquetValue(money, '10000000000000.00')).toThrow(/more than 15 digits/);
    expect(() => parquetValue(money, '1e3')).toThrow(ParquetValueError);
    expect(() => parquetValue(money, null)).toThrow(/never null/);
  });

  it("should convert a column's repeated values as each alone, refusing the first that does not fit", () => {
    const amounts = ['12.50', '7', '12.50', null, '-0.05', '7', '12.50'];
    const nullable = { ...money, nullable: true };
    expect(parquetValues(nullable, amounts)).toEqual(amounts.map((v) => parquetValue(nullable, v)));
    const days = ['2026-03-01', '2026-03-01', '2026-02-28'];
    expect(parquetValues(of('businessDate'), days)).toEqual([20513, 20513, 20512]);
    expect(() => parquetValues(money, ['1.50', '1.50', '1.005', '1.50'])).toThrow(
      /amount "1.005": more than 2 decimals/,
    );
    expect(() => parquetValues(money, ['1.50', null])).toThrow(/never null/);
  });

  it('should write ids as INT64 and refuse one beyond it', () => {
    expect(parquetValue(of('id'), '9223372036854775807')).toBe(9223372036854775807n);
    expect(() => parquetValue(of('id'), '9223372036854775808')).toThrow(/above the INT64 range/);
    expect(() => parquetValue(of('id'), '-1')).toThrow(/not an id/);
    expect(parquetValue(of('originalSaleId'), null)).toBeNull();
  });

  it('should write wall-clock times as they read, instants in UTC, dates as days', () => {
    // 02:30 on the day Madrid skips 02:00-03:00: a wall-clock reading, kept as it is.
    expect(parquetValue(of('soldAt'), '2026-03-29T02:30:00.250')).toBe(
      BigInt(Date.UTC(2026, 2, 29, 2, 30, 0, 250)),
    );
    expect(parquetValue(of('soldAtUtc'), '2026-03-29T01:30:00.000Z')).toBe(
      BigInt(Date.UTC(2026, 2, 29, 1, 30)),
    );
    expect(() => parquetValue(of('soldAtUtc'), '2026-03-29T01:30:00.000+01:00')).toThrow(
      /RFC 3339 UTC/,
    );
    expect(parquetValue(of('businessDate'), '1970-01-02')).toBe(1);
    expect(() => parquetValue(of('businessDate'), '2026-3-1')).toThrow(/not a date/);
  });

  it('should keep a field the declaration lacks, as nullable text', () => {
    const columns = columnsOf(PARQUET_TABLES.payments, [
      { id: '1', tipAmount: '1.00' },
      { id: '2' },
    ]);
    expect(columns.at(-1)).toEqual({ field: 'tipAmount', type: { kind: 'text' }, nullable: true });
    expect(parquetValue(columns.at(-1) as ParquetColumn, { a: 1 })).toBe('{"a":1}');
    expect(columnsOf(PARQUET_TABLES.sales, [{ lines: [] }], ['lines'])).toEqual(
      PARQUET_TABLES.sales,
    );
  });

  it('should give DECIMALs the physical type their precision needs', () => {
    expect(schemaElement(of('taxRate', 'sale_lines'))).toMatchObject({
      type: 'INT32',
      precision: 5,
      scale: 2,
    });
    expect(schemaElement(money)).toMatchObject({ type: 'INT64', converted_type: 'DECIMAL' });
    expect(schemaElement(of('soldAt'))).toMatchObject({
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MILLIS' },
    });
  });
});
