import type { PaymentMethod } from './business-data.types';
import { type Prng, WeightedTable } from './prng';
import type { Language } from './seed-catalog';

/** A payment in cents, `offsetMs` after the sale's sold_at (always under a second). */
export interface PaymentDraft {
  offsetMs: number;
  method: PaymentMethod;
  amount: number;
  cardBrand: string | null;
  reference: string | null;
}

const SINGLE_METHODS = new WeightedTable<PaymentMethod>([
  ['CARD', 56],
  ['CASH', 36],
  ['GIFT_CARD', 2.5],
  ['OTHER', 2.5],
  ['VOUCHER', 2],
  ['TRANSFER', 1],
]);
const FIRST_OF_SPLIT = new WeightedTable<PaymentMethod>([
  ['CASH', 40],
  ['GIFT_CARD', 30],
  ['VOUCHER', 30],
]);
const CARD_BRANDS = new WeightedTable([
  ['VISA', 55],
  ['MASTERCARD', 35],
  ['AMEX', 10],
]);
const VOUCHER_FACES = [500, 1000, 2000, 2500, 5000];
const SPLIT_CHANCE = 0.11;

/** How a completed sale of `gross` cents (> 0) is paid: one method, or two that add up to it. */
export function buildSalePayments(rng: Prng, gross: number, language: Language): PaymentDraft[] {
  const firstOffset = rng.chance(0.7) ? 0 : rng.int(1, 250);
  if (gross < 200 || !rng.chance(SPLIT_CHANCE)) {
    return [payment(rng, SINGLE_METHODS.pick(rng), gross, firstOffset, language)];
  }
  let method = FIRST_OF_SPLIT.pick(rng);
  let part: number;
  const faces = VOUCHER_FACES.filter((face) => face < gross);
  if (method === 'VOUCHER' && faces.length > 0) {
    part = rng.pick(faces);
  } else if (method === 'GIFT_CARD') {
    part = rng.int(1, gross - 1);
  } else {
    method = 'CASH';
    part = Math.max(100, Math.floor((gross * rng.int(30, 70)) / 10_000) * 100);
    if (part >= gross) part = gross - 1;
  }
  const second: PaymentMethod = method !== 'CASH' && rng.chance(0.25) ? 'CASH' : 'CARD';
  return [
    payment(rng, method, part, firstOffset, language),
    payment(rng, second, gross - part, rng.int(300, 900), language),
  ];
}

/**
 * The refund of a return of `gross` cents (< 0): to the way the original was paid, as store
 * credit on a gift card for vouchers, or when the drawer holds less cash than the refund.
 */
export function buildRefund(
  rng: Prng,
  gross: number,
  original: readonly PaymentDraft[],
  cashInDrawer: number,
  language: Language,
): PaymentDraft {
  const first = original[0];
  let method: PaymentMethod = first?.method ?? 'CASH';
  if (method === 'VOUCHER' || (method === 'CASH' && cashInDrawer < -gross)) method = 'GIFT_CARD';
  const offset = rng.chance(0.7) ? 0 : rng.int(1, 250);
  const refund = payment(rng, method, gross, offset, language);
  if (method === 'CARD' && first?.cardBrand) refund.cardBrand = first.cardBrand;
  return refund;
}

function payment(
  rng: Prng,
  method: PaymentMethod,
  amount: number,
  offsetMs: number,
  language: Language,
): PaymentDraft {
  return {
    offsetMs,
    method,
    amount,
    cardBrand: method === 'CARD' ? CARD_BRANDS.pick(rng) : null,
    reference: reference(rng, method, language),
  };
}

function reference(rng: Prng, method: PaymentMethod, language: Language): string | null {
  switch (method) {
    case 'CARD':
      return rng.digits(12);
    case 'VOUCHER':
      return `VCH-${rng.digits(8)}`;
    case 'GIFT_CARD':
      return `GC-${rng.digits(10)}`;
    case 'TRANSFER':
      return `TRF-${rng.digits(10)}`;
    case 'OTHER':
      return `${language === 'pt' ? 'MBWAY' : 'BIZUM'}-${rng.digits(9)}`;
    default:
      return null;
  }
}
