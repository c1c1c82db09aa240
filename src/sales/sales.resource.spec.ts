import type { Row, SqlReader } from '../common/pagination/keyset-resource';
import type { SaleDto } from './dto/sale.dto';
import { SALES } from './sales.resource';

const line = (saleId: string, lineNo: number): Row => ({
  sale_id: saleId,
  line_no: lineNo,
  item_code: `I${lineNo}`,
  description: `Item ${lineNo}`,
  quantity: '1.0000',
  unit_price: '2.5000',
  discount: '0.00',
  tax_rate: '21.00',
  net: '2.50',
  tax: '0.53',
  gross: '3.03',
});

const sale = (id: string): SaleDto =>
  SALES.toRecord({
    id,
    shop_code: 'S1',
    register_code: 'R1',
    ticket_number: `T${id}`,
    kind: 'SALE',
    status: 'COMPLETED',
    business_date: '2026-03-01',
    sold_at: '2026-03-01 10:00:00.000',
    currency: 'EUR',
    total_net: '2.50',
    total_tax: '0.53',
    total_discount: '0.00',
    total_gross: '3.03',
    employee_code: null,
    customer_code: null,
    original_sale_id: null,
  });

describe('SALES.attachChildren', () => {
  it('should read the lines of a whole page with one query, ordered by sale and line number', async () => {
    const calls: Array<{ sql: string; params: unknown[] }> = [];
    const reader: SqlReader = {
      query: (sql, params) => {
        calls.push({ sql, params });
        return Promise.resolve([line('7', 1), line('7', 2), line('9007199254740993', 1)]);
      },
    };
    const page = [sale('7'), sale('8'), sale('9007199254740993')];
    await SALES.attachChildren?.(page, reader);

    expect(calls).toHaveLength(1);
    expect(calls[0].sql).toMatch(
      /WHERE l\.sale_id IN \(\?, \?, \?\)\s+ORDER BY l\.sale_id, l\.line_no/,
    );
    expect(calls[0].params).toEqual([7n, 8n, 9007199254740993n]);
    expect(page.map((s) => s.lines.map((l) => l.lineNo))).toEqual([[1, 2], [], [1]]);
    expect(page[0].lines[1]).toEqual({
      lineNo: 2,
      itemCode: 'I2',
      description: 'Item 2',
      quantity: '1.0000',
      unitPrice: '2.5000',
      discount: '0.00',
      taxRate: '21.00',
      net: '2.50',
      tax: '0.53',
      gross: '3.03',
    });
  });
});
