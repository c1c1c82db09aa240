import type { CashMovementRecord } from '../../cash-movements/cash-movements.resource';
import type { PaymentRecord } from '../../payments/payments.resource';
import type { SaleRecord } from '../../sales/sale.record';
import type { Shop } from '../../shops/shop.record';

/** Examples of the records, shaped as the service writes them (checked by the e2e specs). */
export const SALE_EXAMPLE: SaleRecord = {
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
  lines: [
    {
      lineNo: 1,
      itemCode: '8410000000012',
      description: 'Aceite de oliva virgen extra 1 l',
      quantity: '1.0000',
      unitPrice: '12.5000',
      discount: '0.00',
      taxRate: '21.00',
      net: '10.33',
      tax: '2.17',
      gross: '12.50',
    },
  ],
};

export const PAYMENT_EXAMPLE: PaymentRecord = {
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

export const CASH_MOVEMENT_EXAMPLE: CashMovementRecord = {
  id: '524288',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  movedAt: '2026-03-01T08:00:00.000',
  kind: 'OPENING_FLOAT',
  amount: '150.00',
  currency: 'EUR',
  reason: null,
  employeeCode: 'E007',
  saleId: null,
};

export const SHOP_EXAMPLE: Shop = {
  code: 'SHOP001',
  name: 'Mercado Sol Centro',
  timeZone: 'Europe/Madrid',
  currency: 'EUR',
};

/** What a nextCursor looks like (opaque: clients never build or parse one). */
export const CURSOR_EXAMPLE =
  'WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.' +
  'q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0';
