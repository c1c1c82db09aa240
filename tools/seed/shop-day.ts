import type { SaleStatus } from './business-data.types';
import { Prng, WeightedTable } from './prng';
import { buildReturnLines, buildSaleLines, sumLines } from './sale-lines';
import { type PaymentDraft, buildRefund, buildSalePayments } from './sale-payments';
import { dayOfWeek, pad } from './seed-format';
import type { RegisterPlan, ShopPlan } from './shop-setup';
import {
  type DrawerDay,
  closeDrawer,
  flushPlanned,
  openDrawer,
  employeeAt,
  recordCashPayment,
} from './cash-drawer';
import type { CashDraft, SaleDraft } from './seed-drafts';

/** A shop's state carried from day to day. */
export interface ShopRuntime {
  plan: ShopPlan;
  rng: Prng;
  nextTicket: number[];
  /** Completed sales a later return may refer to (a bounded, random sample of the past). */
  returnable: SaleDraft[];
}

/** Sunday … Saturday; the mean is 1. */
const WEEKDAY_FACTORS = [0.9, 0.85, 0.85, 0.9, 0.95, 1.15, 1.4];
/** Relative traffic of the 12 opening hours: late-morning and evening peaks. */
const HOURS = new WeightedTable(
  [0.5, 0.8, 1, 1.3, 1.4, 1, 0.7, 0.8, 1, 1.3, 1.4, 1].map((w, hour) => [hour, w] as const),
);
const RETURN_CHANCE = 0.03;
const VOID_CHANCE = 0.01;
const CUSTOMER_CHANCE = 0.3;
const RETURNABLE_CAP = 300;
/** A customer brings an item back on the day of purchase an hour later at the earliest. */
const SAME_DAY_RETURN_DELAY_MS = 3_600_000;

export function createShopRuntime(
  plan: ShopPlan,
  seed: number,
  nextTicketNumbers: Readonly<Record<string, number>> = {},
): ShopRuntime {
  return {
    plan,
    rng: new Prng(seed, `sales:${plan.code}`),
    nextTicket: plan.registers.map((r) => nextTicketNumbers[`${plan.code}/${r.code}`] ?? 1),
    returnable: [],
  };
}

/** One trading day of one shop: its sales in time order and its registers' cash movements. */
export function generateShopDay(
  shop: ShopRuntime,
  date: string,
  salesPerDay: number,
): { sales: SaleDraft[]; cash: CashDraft[] } {
  const { plan, rng } = shop;
  const mean = salesPerDay * plan.sizeFactor * WEEKDAY_FACTORS[dayOfWeek(date)];
  const count = Math.floor(mean * (0.8 + 0.4 * rng.next()) + rng.next());
  const perRegister = plan.registers.map(() => 0);
  for (let i = 0; i < count; i++) perRegister[plan.registerTable.pickIndex(rng)]++;

  const events: { at: number; register: number }[] = [];
  const drawers: (DrawerDay | null)[] = plan.registers.map((register, r) => {
    if (perRegister[r] === 0) return null;
    for (const at of saleTimes(rng, perRegister[r], plan.openMs, plan.closeMs)) {
      events.push({ at, register: r });
    }
    return openDrawer(rng, plan, register);
  });
  events.sort((a, b) => a.at - b.at || a.register - b.register);

  const sales: SaleDraft[] = [];
  for (const event of events) {
    const drawer = drawers[event.register] as DrawerDay;
    flushPlanned(drawer, event.at);
    const sale = buildSale(shop, date, plan.registers[event.register], event.at, drawer);
    sales.push(sale);
    for (const payment of sale.payments) {
      if (payment.method === 'CASH') recordCashPayment(drawer, sale, payment);
    }
  }
  const cash: CashDraft[] = [];
  for (const drawer of drawers) if (drawer) cash.push(...closeDrawer(rng, drawer));
  return { sales, cash };
}

function buildSale(
  shop: ShopRuntime,
  date: string,
  register: RegisterPlan,
  at: number,
  drawer: DrawerDay,
): SaleDraft {
  const { plan, rng } = shop;
  const original = pickOriginal(shop, date, at);
  const lines = original ? buildReturnLines(rng, original.lines) : buildSaleLines(rng);
  const amounts = sumLines(lines);
  const status: SaleStatus = !original && rng.chance(VOID_CHANCE) ? 'VOIDED' : 'COMPLETED';
  let payments: PaymentDraft[] = [];
  if (original) {
    payments = [buildRefund(rng, amounts.gross, original.payments, drawer.balance, plan.language)];
  } else if (status === 'COMPLETED') {
    payments = buildSalePayments(rng, amounts.gross, plan.language);
  }
  const randomCustomer = rng.chance(CUSTOMER_CHANCE) ? `C${pad(rng.int(1, 25_000), 6)}` : null;
  const sale: SaleDraft = {
    id: '',
    shop: plan,
    register,
    businessDate: date,
    soldAtMs: at,
    createdAtMs: at + rng.int(200, 90_000),
    ticketNumber: `${register.code}-${pad(shop.nextTicket[register.index]++, 6)}`,
    kind: original ? 'RETURN' : 'SALE',
    status,
    lines,
    amounts,
    employee: employeeAt(drawer, at),
    customer: original ? (original.customer ?? randomCustomer) : randomCustomer,
    original,
    payments,
  };
  if (!original && status === 'COMPLETED') remember(shop, sale);
  return sale;
}

/** Draws whether this ticket is a return, and of which earlier sale of the shop. */
function pickOriginal(shop: ShopRuntime, date: string, at: number): SaleDraft | null {
  const { rng, returnable } = shop;
  if (!rng.chance(RETURN_CHANCE) || returnable.length === 0) return null;
  const index = rng.int(0, returnable.length - 1);
  const candidate = returnable[index];
  const tooRecent =
    candidate.businessDate === date && candidate.soldAtMs > at - SAME_DAY_RETURN_DELAY_MS;
  if (tooRecent) return null;
  returnable[index] = returnable[returnable.length - 1];
  returnable.pop();
  return candidate;
}

function remember(shop: ShopRuntime, sale: SaleDraft): void {
  if (shop.returnable.length < RETURNABLE_CAP) shop.returnable.push(sale);
  else shop.returnable[shop.rng.int(0, RETURNABLE_CAP - 1)] = sale;
}

/**
 * `count` strictly increasing times (ms of day) in [open, close), at least a second apart so
 * that a sale's payments (under a second after it) come before the register's next sale.
 */
function saleTimes(rng: Prng, count: number, openMs: number, closeMs: number): number[] {
  const window = closeMs - openMs;
  const gap = Math.min(30_000, Math.max(1_000, Math.floor(window / (4 * count))));
  const span = window - (count - 1) * gap;
  const hourSpan = span / 12;
  const offsets: number[] = [];
  for (let i = 0; i < count; i++) {
    offsets.push(Math.floor((HOURS.pick(rng) + rng.next()) * hourSpan));
  }
  offsets.sort((a, b) => a - b);
  return offsets.map((offset, i) => openMs + offset + i * gap);
}
