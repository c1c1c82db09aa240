import type { CashMovementDto } from './cash-movement.dto';

/** A cash movement as the service writes it: the example of the document. */
export const CASH_MOVEMENT_EXAMPLE: CashMovementDto = {
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
