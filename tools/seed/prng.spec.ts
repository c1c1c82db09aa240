import { Prng, WeightedTable } from './prng';

function draws(rng: Prng, count: number): number[] {
  return Array.from({ length: count }, () => rng.nextUint32());
}

describe(Prng.name, () => {
  it('should repeat the same sequence for the same seed', () => {
    expect(draws(new Prng(42), 100)).toEqual(draws(new Prng(42), 100));
    expect(draws(new Prng(42, 'sales:SHOP001'), 10)).toEqual(
      draws(new Prng(42, 'sales:SHOP001'), 10),
    );
  });

  it('should give different sequences for different seeds and streams', () => {
    expect(draws(new Prng(42), 10)).not.toEqual(draws(new Prng(43), 10));
    expect(draws(new Prng(42, 'a'), 10)).not.toEqual(draws(new Prng(42, 'b'), 10));
  });

  it('should keep next() in [0, 1) and int() within its inclusive bounds', () => {
    const rng = new Prng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 10_000; i++) {
      const x = rng.next();
      expect(x >= 0 && x < 1).toBe(true);
      const n = rng.int(3, 7);
      expect(n >= 3 && n <= 7 && Number.isInteger(n)).toBe(true);
      seen.add(n);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('should pick by weight and never pick a zero weight', () => {
    const rng = new Prng(7);
    const table = new WeightedTable([
      ['a', 3],
      ['never', 0],
      ['b', 1],
    ]);
    const counts: Record<string, number> = { a: 0, b: 0, never: 0 };
    for (let i = 0; i < 20_000; i++) counts[table.pick(rng)]++;
    expect(counts.never).toBe(0);
    expect(counts.a / counts.b).toBeGreaterThan(2.7);
    expect(counts.a / counts.b).toBeLessThan(3.3);
  });

  it('should give chance(p) a frequency close to p', () => {
    const rng = new Prng(9);
    let hits = 0;
    for (let i = 0; i < 20_000; i++) if (rng.chance(0.1)) hits++;
    expect(hits / 20_000).toBeGreaterThan(0.09);
    expect(hits / 20_000).toBeLessThan(0.11);
  });

  it('should refuse an empty pick and weights that are not positive', () => {
    expect(() => new Prng(1).pick([])).toThrow(RangeError);
    expect(() => new WeightedTable([['a', 0]])).toThrow(RangeError);
    expect(() => new WeightedTable([['a', Number.NaN]])).toThrow(RangeError);
  });
});
