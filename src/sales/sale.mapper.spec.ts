import fc from 'fast-check';
import {
  expectCanonicalEqualsList,
  sqlValues as v,
} from '../common/testing/canonical-record.check';
import { toCanonicalSale, toSaleRecord } from './sale.mapper';
import type { SaleRow } from './sales.source';

const line = fc.record({
  sale_id: v.id,
  line_no: v.integer,
  item_code: v.text,
  description: v.text,
  quantity: v.decimal,
  unit_price: v.decimal,
  discount: v.decimal,
  tax_rate: v.decimal,
  net: v.decimal,
  tax: v.decimal,
  gross: v.decimal,
});

const sale: fc.Arbitrary<SaleRow> = fc.record({
  id: v.id,
  shop_code: v.text,
  register_code: v.text,
  ticket_number: v.text,
  kind: fc.constantFrom('SALE', 'RETURN'),
  status: fc.constantFrom('COMPLETED', 'VOIDED'),
  business_date: v.dateTime.map((t) => t.slice(0, 10)),
  sold_at: v.dateTime,
  currency: v.text,
  total_net: v.decimal,
  total_tax: v.decimal,
  total_discount: v.decimal,
  total_gross: v.decimal,
  employee_code: v.nullable(v.text),
  customer_code: v.nullable(v.text),
  original_sale_id: v.nullable(v.id),
  lines: fc.array(line, { maxLength: 4 }),
});

describe(toCanonicalSale.name, () => {
  it("should write exactly the RFC 8785 form of the list's sale, lines included", () => {
    expectCanonicalEqualsList(sale, toSaleRecord, toCanonicalSale);
  });
});
