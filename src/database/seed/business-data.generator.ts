import type {
  BusinessDataBatch,
  BusinessDataOptions,
  CashMovementRow,
  IdLike,
  PaymentRow,
  SaleLineRow,
  SaleRow,
  SeedIds,
} from './business-data.types';
import { addDays, formatCents, formatDateTime, formatE4, isIsoDate } from './seed-format';
import type { CashDraft, SaleDraft } from './seed-drafts';
import { createShopRuntime, generateShopDay } from './shop-day';
import { planShops, shopSpecs } from './shop-setup';

/** Per shop and day; keeps a day's times a second apart and a batch's size bounded. */
export const MAX_SALES_PER_DAY = 5_000;
const MAX_ID = 2n ** 64n - 1n;

/** All rows of a generation, concatenated (for tests and small data sets). */
export type BusinessData = Omit<BusinessDataBatch, 'businessDate'>;

/**
 * Point-of-sale business data, one batch per business date, deterministic for a seed: the
 * same options always yield the same rows. Ids are given out from `firstIds` in time order, so
 * lines, payments and cash movements reference their sales without asking a database.
 */
export function generateBusinessData(options: BusinessDataOptions): Generator<BusinessDataBatch> {
  validateBusinessDataOptions(options);
  return batches(options);
}

function* batches(options: BusinessDataOptions): Generator<BusinessDataBatch> {
  const plans = planShops(options.seed, shopSpecs(options.shops));
  const shops = plans.map((plan) =>
    createShopRuntime(plan, options.seed, options.nextTicketNumbers),
  );
  const ids: SeedIds<bigint> = {
    sale: toId(options.firstIds?.sale ?? 1, 'firstIds.sale'),
    payment: toId(options.firstIds?.payment ?? 1, 'firstIds.payment'),
    cashMovement: toId(options.firstIds?.cashMovement ?? 1, 'firstIds.cashMovement'),
  };
  for (let day = 0; day < options.days; day++) {
    const date = addDays(options.startDate, day);
    const sales: SaleDraft[] = [];
    const cash: CashDraft[] = [];
    for (const shop of shops) {
      const result = generateShopDay(shop, date, options.salesPerDay);
      for (const sale of result.sales) sales.push(sale);
      for (const movement of result.cash) cash.push(movement);
    }
    yield {
      businessDate: date,
      shops: day === 0 ? plans.flatMap((p) => (p.shopRow ? [p.shopRow] : [])) : [],
      registers: day === 0 ? plans.flatMap((p) => p.registerRows) : [],
      ...toRows(date, sales, cash, ids),
    };
  }
}

/** Every batch of `generateBusinessData`, concatenated. */
export function collectBusinessData(options: BusinessDataOptions): BusinessData {
  const all: BusinessData = {
    shops: [],
    registers: [],
    sales: [],
    lines: [],
    payments: [],
    cashMovements: [],
  };
  for (const batch of generateBusinessData(options)) {
    for (const key of Object.keys(all) as (keyof BusinessData)[]) {
      const target = all[key] as unknown[];
      for (const row of batch[key]) target.push(row);
    }
  }
  return all;
}

function toRows(
  date: string,
  sales: SaleDraft[],
  cash: CashDraft[],
  ids: SeedIds<bigint>,
): Pick<BusinessDataBatch, 'sales' | 'lines' | 'payments' | 'cashMovements'> {
  sales.sort((a, b) => a.soldAtMs - b.soldAtMs);
  for (const sale of sales) sale.id = String(nextId(ids, 'sale'));
  const saleRows: SaleRow[] = [];
  const lineRows: SaleLineRow[] = [];
  const paid: { at: number; sale: SaleDraft; index: number }[] = [];
  for (const sale of sales) {
    saleRows.push(saleRow(date, sale));
    sale.lines.forEach((line, i) =>
      lineRows.push({
        sale_id: sale.id,
        line_no: i + 1,
        item_code: line.item.code,
        description: line.item.description,
        quantity: formatE4(line.quantityE4),
        unit_price: formatE4(line.unitPriceE4),
        discount: formatCents(line.discount),
        tax_rate: `${line.item.taxRate}.00`,
        net: formatCents(line.net),
        tax: formatCents(line.tax),
        gross: formatCents(line.gross),
      }),
    );
    sale.payments.forEach((p, index) => paid.push({ at: sale.soldAtMs + p.offsetMs, sale, index }));
  }
  paid.sort((a, b) => a.at - b.at);
  const paymentRows = paid.map(({ at, sale, index }): PaymentRow => {
    const p = sale.payments[index];
    return {
      id: String(nextId(ids, 'payment')),
      sale_id: sale.id,
      shop_code: sale.shop.code,
      register_code: sale.register.code,
      paid_at: formatDateTime(date, at),
      method: p.method,
      amount: formatCents(p.amount),
      currency: sale.shop.currency,
      card_brand: p.cardBrand,
      reference: p.reference,
    };
  });
  cash.sort((a, b) => a.atMs - b.atMs);
  const cashRows = cash.map((m): CashMovementRow => ({
    id: String(nextId(ids, 'cashMovement')),
    shop_code: m.shop.code,
    register_code: m.register.code,
    moved_at: formatDateTime(date, m.atMs),
    kind: m.kind,
    amount: formatCents(m.amount),
    currency: m.shop.currency,
    reason: m.reason,
    employee_code: m.employee,
    sale_id: m.sale ? m.sale.id : null,
  }));
  return { sales: saleRows, lines: lineRows, payments: paymentRows, cashMovements: cashRows };
}

function saleRow(date: string, sale: SaleDraft): SaleRow {
  return {
    id: sale.id,
    shop_code: sale.shop.code,
    register_code: sale.register.code,
    ticket_number: sale.ticketNumber,
    kind: sale.kind,
    status: sale.status,
    business_date: date,
    sold_at: formatDateTime(date, sale.soldAtMs),
    currency: sale.shop.currency,
    total_net: formatCents(sale.amounts.net),
    total_tax: formatCents(sale.amounts.tax),
    total_discount: formatCents(sale.amounts.discount),
    total_gross: formatCents(sale.amounts.gross),
    employee_code: sale.employee,
    customer_code: sale.customer,
    original_sale_id: sale.original ? sale.original.id : null,
    created_at: formatDateTime(date, sale.createdAtMs),
  };
}

function nextId(ids: SeedIds<bigint>, key: keyof SeedIds): bigint {
  const id = ids[key];
  if (id > MAX_ID) throw new RangeError(`${key} id beyond BIGINT UNSIGNED`);
  ids[key] = id + 1n;
  return id;
}

function toId(value: IdLike, name: string): bigint {
  const text = String(value);
  if (!/^[1-9]\d*$/.test(text) || BigInt(text) > MAX_ID) {
    throw new RangeError(`${name} must be a positive integer, got ${text}`);
  }
  return BigInt(text);
}

/** Throws a RangeError listing every problem of the options. */
export function validateBusinessDataOptions(options: BusinessDataOptions): void {
  const problems: string[] = [];
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 0xffffffff) {
    problems.push('seed must be an integer from 0 to 4294967295');
  }
  if (!Number.isInteger(options.days) || options.days < 1 || options.days > 36_600) {
    problems.push('days must be an integer from 1 to 36600');
  }
  if (!(options.salesPerDay >= 0 && options.salesPerDay <= MAX_SALES_PER_DAY)) {
    problems.push(`salesPerDay must be from 0 to ${MAX_SALES_PER_DAY}`);
  }
  if (!isIsoDate(options.startDate)) problems.push('startDate must be a date YYYY-MM-DD');
  const specs = typeof options.shops === 'number' ? null : options.shops;
  if (
    specs === null &&
    !(
      Number.isInteger(options.shops) &&
      Number(options.shops) >= 1 &&
      Number(options.shops) <= 9_999
    )
  ) {
    problems.push('shops must be an integer from 1 to 9999');
  }
  if (specs && specs.length === 0) problems.push('shops must not be empty');
  const codes = new Set<string>();
  for (const spec of specs ?? []) {
    if (!/^\S{1,16}$/.test(spec.code))
      problems.push(`shop code must be 1-16 characters: ${spec.code}`);
    if (codes.has(spec.code)) problems.push(`shop code repeated: ${spec.code}`);
    codes.add(spec.code);
    if (spec.registers?.length === 0) problems.push(`shop ${spec.code} has no registers`);
  }
  if (problems.length > 0) throw new RangeError(`Invalid seed options: ${problems.join('; ')}`);
}
