/**
 * Exact money arithmetic for the report's totals: amounts are decimal strings with two decimals
 * (as `decimal(v, 2)` writes them), summed as BigInt cents, never as floats.
 */
const TWO_DECIMALS = /^(-?)(\d+)\.(\d{2})$/;

/** '12.50' → 1250n, '-0.05' → -5n. Anything but a two-decimal string is a programming error. */
export function toCents(amount: string): bigint {
  const match = TWO_DECIMALS.exec(amount);
  if (!match) throw new Error(`not a two-decimal amount: ${amount}`);
  const [, sign, units, cents] = match;
  return BigInt(sign + units + cents);
}

/** 1250n → '12.50', -5n → '-0.05', 0n → '0.00'. */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const units = magnitude / 100n;
  const rest = (magnitude % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${units}.${rest}`;
}
