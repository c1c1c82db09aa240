import type { Prng } from './prng';
import { CASH_DROP_REASON, CASH_IN_REASONS, PETTY_CASH_REASONS } from './seed-catalog';
import { formatCents } from './seed-format';
import type { CashDraft } from './seed-drafts';
import type { RegisterPlan, ShopPlan } from './shop-setup';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

type PlannedKind = 'drop' | 'petty' | 'top-up';

/** One register's drawer through one trading day. */
export interface DrawerDay {
  rng: Prng;
  shop: ShopPlan;
  register: RegisterPlan;
  /** Cash in the drawer now, in cents. */
  balance: number;
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
    movements: [],
    morningEmployee: rng.pick(shop.employees),
    lateEmployee: rng.pick(shop.employees),
    planned: [],
  };
  const { openMs, closeMs } = shop;
  if (rng.chance(0.35))
    drawer.planned.push({
      at: between(rng, openMs + 2 * HOUR_MS, closeMs - HOUR_MS),
      kind: 'drop',
    });
  if (rng.chance(0.08))
    drawer.planned.push({
      at: between(rng, openMs + 30 * MINUTE_MS, closeMs - 30 * MINUTE_MS),
      kind: 'petty',
    });
  if (rng.chance(0.05))
    drawer.planned.push({
      at: between(rng, openMs + HOUR_MS, closeMs - 2 * HOUR_MS),
      kind: 'top-up',
    });
  drawer.planned.sort((a, b) => a.at - b.at);
  const at = openMs - rng.int(5, 25) * MINUTE_MS - rng.int(0, MINUTE_MS - 1);
  move(drawer, at, 'OPENING_FLOAT', register.floatCents, null);
  return drawer;
}

/** Applies the planned cash-ins and cash-outs due before `beforeMs`. */
export function flushPlanned(drawer: DrawerDay, beforeMs: number): void {
  const { rng } = drawer;
  while (drawer.planned.length > 0 && drawer.planned[0].at < beforeMs) {
    const { at, kind } = drawer.planned.shift() as { at: number; kind: PlannedKind };
    if (kind === 'drop') {
      const excess = drawer.balance - drawer.register.floatCents;
      const amount = Math.floor((excess * rng.int(50, 90)) / 500_000) * 5_000;
      if (amount > 0) move(drawer, at, 'CASH_OUT', -amount, CASH_DROP_REASON);
    } else if (kind === 'petty') {
      const amount = rng.int(150, 2_500);
      if (amount <= drawer.balance)
        move(drawer, at, 'CASH_OUT', -amount, rng.pick(PETTY_CASH_REASONS));
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

function move(
  drawer: DrawerDay,
  at: number,
  kind: CashDraft['kind'],
  amount: number,
  reason: string | null,
): void {
  drawer.balance += amount;
  drawer.movements.push({
    atMs: at,
    shop: drawer.shop,
    register: drawer.register,
    kind,
    amount,
    reason,
    employee: at < drawer.shop.openMs + 6 * HOUR_MS ? drawer.morningEmployee : drawer.lateEmployee,
    sale: null,
  });
}

function between(rng: Prng, from: number, to: number): number {
  return rng.int(from, to);
}
