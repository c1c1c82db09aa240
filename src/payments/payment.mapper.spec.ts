import { sourceRows } from '../backoffice/testing/source-rows';
import { expectCanonicalEqualsList } from '../common/testing/canonical-record.check';
import { toCanonicalPayment, toPaymentRecord } from './payment.mapper';
import { PAYMENTS } from './payments.source';

describe(toCanonicalPayment.name, () => {
  it("should write exactly the RFC 8785 form of the list's payment", () => {
    expectCanonicalEqualsList(sourceRows(PAYMENTS), toPaymentRecord, toCanonicalPayment);
  });
});
