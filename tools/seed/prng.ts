/**
 * A small seeded pseudo-random number generator (sfc32, seeded through splitmix32), so that the
 * same seed always yields the same data on every platform. Not for anything secret.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `seed` is any 32-bit integer; `stream` picks an independent sequence for the same seed. */
  constructor(seed: number, stream: number | string = 0) {
    let state = (seed ^ Math.imul(hashString(String(stream)), 0x9e3779b9)) >>> 0;
    const next = (): number => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Prng.pick: empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by relative weight; for hot paths build a `WeightedTable` once instead. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    return new WeightedTable(entries).pick(this);
  }

  /** `length` random decimal digits. */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(this.nextUint32() % 10);
    return out;
  }
}

/** Values with relative weights, cumulated once so that each pick is a binary search. */
export class WeightedTable<T> {
  private readonly values: T[];
  private readonly cumulative: number[];
  private readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    this.values = entries.map(([value]) => value);
    let sum = 0;
    this.cumulative = entries.map(([, weight]) => {
      if (!(weight >= 0)) throw new RangeError('WeightedTable: weights must be >= 0');
      return (sum += weight);
    });
    this.total = sum;
    if (!(this.total > 0)) throw new RangeError('WeightedTable: total weight must be > 0');
  }

  pick(rng: Prng): T {
    return this.values[this.pickIndex(rng)];
  }

  pickIndex(rng: Prng): number {
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** FNV-1a, 32 bits: turns a label (a shop code, say) into a stream number. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
