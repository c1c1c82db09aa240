import { generateBusinessData } from './business-data.generator';
import { BATCH_KEYS, TABLES } from './bulk-insert';
import { ID_KEYS, SEED_TABLES } from './seed-tables';

describe('SEED_TABLES', () => {
  it('should read the business tables off the catalogue, a table attached to rows after theirs, in foreign-key order', () => {
    expect(SEED_TABLES.slice(0, 4).map((t) => [t.key, t.table, t.ids?.label ?? null])).toEqual([
      ['sales', 'pos_sales', 'sale'],
      ['lines', 'pos_sale_lines', null],
      ['payments', 'pos_payments', 'payment'],
      ['cashMovements', 'pos_cash_movements', 'cash movement'],
    ]);
    expect(BATCH_KEYS).toEqual(['shops', 'registers', ...SEED_TABLES.map((t) => t.key)]);
    expect(ID_KEYS.slice(0, 3)).toEqual(['sales', 'payments', 'cashMovements']);
    expect(ID_KEYS).toEqual(SEED_TABLES.filter((t) => t.columns.includes('id')).map((t) => t.key));
  });

  it('should insert a resource table its declared columns and its arrival column', () => {
    expect(TABLES.sales.columns.slice(-2)).toEqual(['original_sale_id', 'created_at']);
    expect(TABLES.lines.columns[0]).toBe('sale_id');
  });

  it('should name exactly the parts the generator gives a batch (a resource with a feed needs its demo rows)', () => {
    const options = { seed: 1, shops: 1, days: 1, salesPerDay: 5, startDate: '2026-01-01' };
    const [batch] = [...generateBusinessData(options)];
    expect(Object.keys(batch).sort()).toEqual(['businessDate', ...BATCH_KEYS].sort());
  });
});
