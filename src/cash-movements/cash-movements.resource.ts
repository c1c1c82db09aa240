import type { CashMovementRow } from '../backoffice/read-models';
import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import { toCashMovementRecord } from './cash-movement.mapper';

/** A movement of a register's cash drawer: + into the drawer, - out of it. */
export interface CashMovementRecord {
  id: string;
  shopCode: string;
  registerCode: string;
  /** Shop-local date-time, without zone. */
  movedAt: string;
  /** OPENING_FLOAT | SALE | REFUND | CASH_IN | CASH_OUT | CLOSING_COUNT */
  kind: string;
  amount: string;
  currency: string;
  reason: string | null;
  employeeCode: string | null;
  saleId: string | null;
}

/** GET /cash-movements: pages of the caller's cash movements, mapped to CashMovementRecord. */
export const CASH_MOVEMENTS: KeysetResource<ShopScopedReader, CashMovementRow, CashMovementRecord> =
  {
    name: 'cash-movements',
    read: (reader, query) => reader.cashMovementsPage(query),
    toRecord: toCashMovementRecord,
  };
