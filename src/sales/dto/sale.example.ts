import { EXAMPLE_SALE_LINE } from '../../common/openapi/example-sale-line';
import type { SaleDto } from './sale.dto';

/** A sale as the service writes it: the example of the document (checked by the e2e specs). */
export const SALE_EXAMPLE: SaleDto = {
  id: '1048576',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  ticketNumber: 'R1-000123',
  kind: 'SALE',
  status: 'COMPLETED',
  businessDate: '2026-03-01',
  soldAt: '2026-03-01T10:15:30.250',
  currency: 'EUR',
  totalNet: '10.33',
  totalTax: '2.17',
  totalDiscount: '0.00',
  totalGross: '12.50',
  employeeCode: 'E007',
  customerCode: null,
  originalSaleId: null,
  lines: [EXAMPLE_SALE_LINE],
};
