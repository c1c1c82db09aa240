import { validateBusinessDataOptions } from './business-data.options';
import type { BusinessDataBatch, BusinessDataOptions, SeedIds } from './business-data.types';
import { BATCH_KEYS, type BatchKey, rowsOf } from './bulk-insert';
import { addDays } from './seed-format';
import type { CashDraft, SaleDraft } from './seed-drafts';
import { toId, toRows } from './seed-rows';
import { ID_KEYS } from './seed-tables';
import { createShopRuntime, generateShopDay } from './shop-day';
import { planShops, shopSpecs } from './shop-setup';

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
  const ids = Object.fromEntries(
    ID_KEYS.map((key) => [key, toId(options.firstIds?.[key] ?? 1, `firstIds.${key}`)]),
  ) as SeedIds<bigint>;
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
  const all = {} as Record<BatchKey, unknown[]>;
  for (const key of BATCH_KEYS) all[key] = [];
  for (const batch of generateBusinessData(options)) {
    for (const key of BATCH_KEYS) for (const row of rowsOf(batch, key)) all[key].push(row);
  }
  return all as BusinessData;
}
