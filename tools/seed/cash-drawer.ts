import type { Prng } from './prng';
import { CASH_DROP_REASON, CASH_IN_REASONS, PETTY_CASH_REASONS } from './seed-catalog';
import { formatCents } from './seed-format';
import type { PaymentDraft } from './sale-payments';
import type { CashDraft, SaleDraft } from './seed-drafts';
import type { RegisterPlan, ShopPlan } from './shop-setup';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

type PlannedKind = 'drop' | 'petty' | 'top-up';

/** Chance per register-day of each cash-in or cash-out, and when in the day it may happen. */
const PLANNED: readonly {
  kind: PlannedKind;
  chance: number;
  afterOpenMs: number;
  beforeCloseMs: number;
}[] = [
  { kind: 'drop', chance: 0.35, afterOpenMs: 2 * HOUR_MS, beforeCloseMs: HOUR_MS },
  { kind: 'petty', chance: 0.08, afterOpenMs: 30 * MINUTE_MS, beforeCloseMs: 30 * MINUTE_MS },
  { kind: 'top-up', chance: 0.05, afterOpenMs: HOUR_MS, beforeCloseMs: 2 * HOUR_MS },
];

/** One register's drawer through one trading day. */
export interface DrawerDay {
  rng: Prng;
  shop: ShopPlan;
  register: RegisterPlan;
  /** Cash in the drawer now, in cents. */
  balance: number;
  /** Time of the latest movement: a planned one never goes before it. */
  lastAt: number;
  movements: CashDraft[];
  morningEmployee: string;
  lateEmployee: string;
  /** Cash taken out or put in between sales, in time order; applied by `flushPlanned`. */
  planned: { at: number; kind: PlannedKind }[];
}

/** The morning: an employee puts the opening float in the drawer before the doors open. */
export function openDrawer(rng: Prng, shop: ShopPlan, register: RegisterPlan): DrawerDay {
  const drawer: DrawerDay = {
    rng,
    shop,
    register,
    balance: 0,
    lastAt: 0,
    movements: [],
    morningEmployee: rng.pick(shop.employees),
    lateEmployee: rng.pick(shop.employees),
    planned: [],
  };
  for (const plan of PLANNED) {
    if (!rng.chance(plan.chance)) continue;
    const at = rng.int(shop.openMs + plan.afterOpenMs, shop.closeMs - plan.beforeCloseMs);
    drawer.planned.push({ at, kind: plan.kind });
  }
  drawer.planned.sort((a, b) => a.at - b.at);
  const at = shop.openMs - rng.int(5, 25) * MINUTE_MS - rng.int(0, MINUTE_MS - 1);
  move(drawer, at, 'OPENING_FLOAT', register.floatCents, null);
  return drawer;
}

/** Applies the planned cash-ins and cash-outs due before `beforeMs`. */
export function flushPlanned(drawer: DrawerDay, beforeMs: number): void {
  const { rng } = drawer;
  while (drawer.planned.length > 0 && drawer.planned[0].at < beforeMs) {
    const next = drawer.planned.shift() as { at: number; kind: PlannedKind };
    const at = Math.max(next.at, drawer.lastAt + 1);
    const kind = next.kind;
    if (kind === 'drop') {
      const excess = drawer.balance - drawer.register.floatCents;
      const amount = Math.floor((excess * rng.int(50, 90)) / 500_000) * 5_000;
      if (amount > 0) move(drawer, at, 'CASH_OUT', -amount, CASH_DROP_REASON);
    } else if (kind === 'petty') {
      const amount = rng.int(150, 2_500);
      if (amount <= drawer.balance) {
        move(drawer, at, 'CASH_OUT', -amount, rng.pick(PETTY_CASH_REASONS));
      }
    } else {
      move(drawer, at, 'CASH_IN', rng.pick([2_000, 5_000, 10_000]), rng.pick(CASH_IN_REASONS));
    }
  }
}

/** The evening: whatever is still planned, then the count; all the cash leaves the drawer. */
export function closeDrawer(rng: Prng, drawer: DrawerDay): CashDraft[] {
  flushPlanned(drawer, Number.POSITIVE_INFINITY);
  const expected = drawer.balance;
  const difference = rng.chance(0.05)
    ? rng.pick([-500, -200, -150, -100, -50, -10, 5, 20, 100])
    : 0;
  const counted = Math.max(0, expected + difference);
  const reason =
    counted === expected
      ? null
      : `Descuadre: ${counted < expected ? 'faltan' : 'sobran'} ${formatCents(Math.abs(counted - expected))}`;
  const at = drawer.shop.closeMs + rng.int(2, 20) * MINUTE_MS + rng.int(0, MINUTE_MS - 1);
  move(drawer, at, 'CLOSING_COUNT', -counted, reason);
  return drawer.movements;
}

/** A cash payment or refund of a sale goes through the drawer at the payment time. */
export function recordCashPayment(drawer: DrawerDay, sale: SaleDraft, payment: PaymentDraft): void {
  const kind = payment.amount >= 0 ? 'SALE' : 'REFUND';
  move(drawer, sale.soldAtMs + payment.offsetMs, kind, payment.amount, null, sale);
}

function move(
  drawer: DrawerDay,
  at: number,
  kind: CashDraft['kind'],
  amount: number,
  reason: string | null,
  sale: SaleDraft | null = null,
): void {
  drawer.balance += amount;
  drawer.lastAt = Math.max(drawer.lastAt, at);
  drawer.movements.push({
    atMs: at,
    shop: drawer.shop,
    register: drawer.register,
    kind,
    amount,
    reason,
    employee: sale ? sale.employee : employeeAt(drawer, at),
    sale,
  });
}

/** Two shifts: the morning one until six hours after opening, then the late one. */
export function employeeAt(drawer: DrawerDay, at: number): string {
  return at < drawer.shop.openMs + 6 * HOUR_MS ? drawer.morningEmployee : drawer.lateEmployee;
}
