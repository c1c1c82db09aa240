import { sourceRows } from '../backoffice/testing/source-rows';
import { expectCanonicalEqualsList } from '../common/testing/canonical-record.check';
import { toCanonicalSale, toSaleRecord } from './sale.mapper';
import { SALES } from './sales.source';

describe(toCanonicalSale.name, () => {
  it("should write exactly the RFC 8785 form of the list's sale, lines included", () => {
    expectCanonicalEqualsList(sourceRows(SALES), toSaleRecord, toCanonicalSale);
  });
});
