import type { CashMovementKind, SaleKind, SaleStatus } from './business-data.types';
import type { LineDraft, SaleAmounts } from './sale-lines';
import type { PaymentDraft } from './sale-payments';
import type { RegisterPlan, ShopPlan } from './shop-setup';

/** A sale before ids are given out; `id` is filled once the whole day is known. */
export interface SaleDraft {
  id: string;
  shop: ShopPlan;
  register: RegisterPlan;
  businessDate: string;
  soldAtMs: number;
  createdAtMs: number;
  ticketNumber: string;
  kind: SaleKind;
  status: SaleStatus;
  lines: LineDraft[];
  amounts: SaleAmounts;
  employee: string;
  customer: string | null;
  original: SaleDraft | null;
  payments: PaymentDraft[];
}

export interface CashDraft {
  atMs: number;
  shop: ShopPlan;
  register: RegisterPlan;
  kind: CashMovementKind;
  amount: number;
  reason: string | null;
  employee: string | null;
  sale: SaleDraft | null;
}
