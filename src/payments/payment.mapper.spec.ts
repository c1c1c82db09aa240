import fc from 'fast-check';
import {
  expectCanonicalEqualsList,
  sqlValues as v,
} from '../common/testing/canonical-record.check';
import { toCanonicalPayment, toPaymentRecord } from './payment.mapper';
import type { PaymentRow } from './payments.source';

const payment: fc.Arbitrary<PaymentRow> = fc.record({
  id: v.id,
  sale_id: v.id,
  shop_code: v.text,
  register_code: v.text,
  paid_at: v.dateTime,
  method: v.text,
  amount: v.decimal,
  currency: v.text,
  card_brand: v.nullable(v.text),
  reference: v.nullable(v.text),
});

describe(toCanonicalPayment.name, () => {
  it("should write exactly the RFC 8785 form of the list's payment", () => {
    expectCanonicalEqualsList(payment, toPaymentRecord, toCanonicalPayment);
  });
});
