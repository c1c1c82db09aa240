import type { BusinessDataOptions, RegisterRow, ShopRow, ShopSpec } from './business-data.types';
import { type Language, PLACES, SHOP_BRAND } from './seed-catalog';
import { pad } from './seed-format';
import { Prng, WeightedTable } from './prng';

const HOUR_MS = 3_600_000;
const REGISTER_WEIGHTS = [1, 0.8, 0.55, 0.4];
const FLOATS_CENTS = [10_000, 15_000, 20_000, 30_000];
const OPENING_HOURS = new WeightedTable([
  [9, 7],
  [10, 3],
]);

export interface RegisterPlan {
  code: string;
  index: number;
  /** Cash put in the drawer every morning. */
  floatCents: number;
}

/** Everything about a shop that stays the same from one day to the next. */
export interface ShopPlan {
  index: number;
  code: string;
  name: string;
  timeZone: string;
  currency: string;
  language: Language;
  registers: RegisterPlan[];
  registerTable: WeightedTable<number>;
  employees: string[];
  openMs: number;
  closeMs: number;
  /** Relative size; the mean over all shops is 1. */
  sizeFactor: number;
  /** Rows to write for a shop that is not in the database yet (none for an existing one). */
  shopRow: ShopRow | null;
  registerRows: RegisterRow[];
}

function defaultShopCode(index: number): string {
  return `SHOP${pad(index + 1, 3)}`;
}

export function shopSpecs(shops: BusinessDataOptions['shops']): readonly ShopSpec[] {
  if (typeof shops !== 'number') return shops;
  return Array.from({ length: shops }, (_, i) => ({ code: defaultShopCode(i) }));
}

export function planShops(seed: number, specs: readonly ShopSpec[]): ShopPlan[] {
  const places = shuffledIndexes(new Prng(seed, 'places'), PLACES.length);
  const plans = specs.map((spec, index) => {
    const rng = new Prng(seed, `setup:${spec.code}`);
    const round = Math.floor(index / places.length);
    const place = PLACES[places[index % places.length]];
    const timeZone = spec.timeZone ?? place.timeZone;
    const language: Language = timeZone === 'Europe/Lisbon' ? 'pt' : 'es';
    const name = spec.name ?? `${SHOP_BRAND} ${place.name}${round > 0 ? ` ${round + 1}` : ''}`;
    const currency = spec.currency ?? 'EUR';
    const registerCodes =
      spec.registers ?? Array.from({ length: rng.int(2, 4) }, (_, i) => `R${i + 1}`);
    const registers = registerCodes.map((code, i) => ({
      code,
      index: i,
      floatCents: rng.pick(FLOATS_CENTS),
    }));
    const openHour = spec.hours?.open ?? OPENING_HOURS.pick(rng);
    const closeHour = spec.hours?.close ?? openHour + 12;
    const employeeCount = rng.int(3, 8);
    return {
      index,
      code: spec.code,
      name,
      timeZone,
      currency,
      language,
      registers,
      registerTable: new WeightedTable(
        registers.map((r, i) => [i, REGISTER_WEIGHTS[i] ?? 0.3] as const),
      ),
      employees: Array.from({ length: employeeCount }, (_, i) => `E${pad(index * 10 + i + 1, 3)}`),
      openMs: openHour * HOUR_MS,
      closeMs: closeHour * HOUR_MS,
      sizeFactor: 0.6 + 0.8 * rng.next(),
      shopRow: spec.existing
        ? null
        : { code: spec.code, name, time_zone: timeZone, currency, is_active: 1 },
      registerRows: spec.registers
        ? []
        : registers.map((r) => ({
            shop_code: spec.code,
            code: r.code,
            name: `${language === 'pt' ? 'Caixa' : 'Caja'} ${r.index + 1}`,
          })),
    };
  });
  const meanSize = plans.reduce((sum, p) => sum + p.sizeFactor, 0) / plans.length;
  for (const plan of plans) plan.sizeFactor /= meanSize;
  return plans;
}

function shuffledIndexes(rng: Prng, length: number): number[] {
  const out = Array.from({ length }, (_, i) => i);
  for (let i = length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
