import fc from 'fast-check';
import {
  expectCanonicalEqualsList,
  sqlValues as v,
} from '../common/testing/canonical-record.check';
import { toCanonicalCashMovement, toCashMovementRecord } from './cash-movement.mapper';
import type { CashMovementRow } from './cash-movements.source';

const movement: fc.Arbitrary<CashMovementRow> = fc.record({
  id: v.id,
  shop_code: v.text,
  register_code: v.text,
  moved_at: v.dateTime,
  kind: v.text,
  amount: v.decimal,
  currency: v.text,
  reason: v.nullable(v.text),
  employee_code: v.nullable(v.text),
  sale_id: v.nullable(v.id),
});

describe(toCanonicalCashMovement.name, () => {
  it("should write exactly the RFC 8785 form of the list's cash movement", () => {
    expectCanonicalEqualsList(movement, toCashMovementRecord, toCanonicalCashMovement);
  });
});
