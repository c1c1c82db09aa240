import type { PaymentDto } from './payment.dto';

/** A payment as the service writes it: the example of the document. */
export const PAYMENT_EXAMPLE: PaymentDto = {
  id: '2097152',
  saleId: '1048576',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  paidAt: '2026-03-01T10:15:41.000',
  method: 'CARD',
  amount: '12.50',
  currency: 'EUR',
  cardBrand: 'VISA',
  reference: 'AUTH-483920',
};
