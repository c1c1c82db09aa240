import { type Prng, WeightedTable } from './prng';
import { CATALOG, type CatalogItem } from './seed-catalog';
import { roundDiv } from './seed-format';

/** A sale line in exact integers: quantity and unit price in 1/10000, amounts in cents. */
export interface LineDraft {
  item: CatalogItem;
  quantityE4: number;
  unitPriceE4: number;
  discount: number;
  net: number;
  tax: number;
  gross: number;
}

export interface SaleAmounts {
  net: number;
  tax: number;
  discount: number;
  gross: number;
}

const ITEMS = new WeightedTable(CATALOG.map((item) => [item, item.weight] as const));
const LINE_COUNTS = new WeightedTable([
  [1, 30],
  [2, 24],
  [3, 18],
  [4, 13],
  [5, 9],
  [6, 6],
]);
const UNIT_QUANTITIES = new WeightedTable([
  [1, 78],
  [2, 13],
  [3, 4],
  [4, 2],
  [6, 2],
  [12, 1],
]);
const DISCOUNT_PERCENTS = [5, 10, 15, 20, 25, 30, 50];
const LINE_DISCOUNT_CHANCE = 0.08;

/**
 * A line's amounts from its quantity, tax-inclusive unit price and discount (all >= 0):
 * gross = quantity × unit price − discount, net = gross / (1 + rate), tax = gross − net.
 */
function priceLine(
  item: CatalogItem,
  quantityE4: number,
  unitPriceE4: number,
  discount: number,
): LineDraft {
  const gross = roundDiv(quantityE4 * unitPriceE4, 1_000_000) - discount;
  const net = roundDiv(gross * 100, 100 + item.taxRate);
  return { item, quantityE4, unitPriceE4, discount, net, tax: gross - net, gross };
}

export function buildSaleLines(rng: Prng): LineDraft[] {
  const count = LINE_COUNTS.pick(rng);
  const lines: LineDraft[] = [];
  for (let i = 0; i < count; i++) {
    const item = ITEMS.pick(rng);
    const quantityE4 = randomQuantityE4(rng, item);
    let discount = 0;
    if (rng.chance(LINE_DISCOUNT_CHANCE)) {
      const base = roundDiv(quantityE4 * item.priceE4, 1_000_000);
      const candidate = roundDiv(base * rng.pick(DISCOUNT_PERCENTS), 100);
      if (candidate < base) discount = candidate;
    }
    lines.push(priceLine(item, quantityE4, item.priceE4, discount));
  }
  return lines;
}

/** The lines a customer brings back: whole lines or some units of one, with negative amounts. */
export function buildReturnLines(rng: Prng, original: readonly LineDraft[]): LineDraft[] {
  const chosen = original.length === 1 || rng.chance(0.6) ? [...original] : [];
  if (chosen.length === 0) {
    for (const line of original) if (rng.chance(0.5)) chosen.push(line);
    if (chosen.length === 0) chosen.push(rng.pick(original));
  }
  return chosen.map((line) => {
    const units = line.quantityE4 / 10_000;
    let returned = line;
    if (line.item.kind === 'unit' && units > 1 && rng.chance(0.3)) {
      const kept = rng.int(1, units - 1);
      const discount = roundDiv(line.discount * (units - kept), units);
      returned = priceLine(line.item, (units - kept) * 10_000, line.unitPriceE4, discount);
    }
    return negateLine(returned);
  });
}

export function sumLines(lines: readonly LineDraft[]): SaleAmounts {
  const sum = { net: 0, tax: 0, discount: 0, gross: 0 };
  for (const line of lines) {
    sum.net += line.net;
    sum.tax += line.tax;
    sum.discount += line.discount;
    sum.gross += line.gross;
  }
  return sum;
}

function negateLine(line: LineDraft): LineDraft {
  return {
    item: line.item,
    quantityE4: -line.quantityE4,
    unitPriceE4: line.unitPriceE4,
    discount: -line.discount,
    net: -line.net,
    tax: -line.tax,
    gross: -line.gross,
  };
}

function randomQuantityE4(rng: Prng, item: CatalogItem): number {
  switch (item.kind) {
    case 'weighed':
      // Scales weigh to 5 g: 0.7350 kg.
      return rng.int(20, 300) * 50;
    case 'bulk':
      return rng.int(4, 60) * 10_000;
    default:
      return UNIT_QUANTITIES.pick(rng) * 10_000;
  }
}
