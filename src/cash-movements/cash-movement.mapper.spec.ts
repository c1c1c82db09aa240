import { sourceRows } from '../backoffice/testing/source-rows';
import { expectCanonicalEqualsList } from '../common/testing/canonical-record.check';
import { toCanonicalCashMovement, toCashMovementRecord } from './cash-movement.mapper';
import { CASH_MOVEMENTS } from './cash-movements.source';

describe(toCanonicalCashMovement.name, () => {
  it("should write exactly the RFC 8785 form of the list's cash movement", () => {
    expectCanonicalEqualsList(
      sourceRows(CASH_MOVEMENTS),
      toCashMovementRecord,
      toCanonicalCashMovement,
    );
  });
});
