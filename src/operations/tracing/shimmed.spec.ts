import { wrappedOriginal } from './shimmed';

/** A wrapper as shimmer leaves it, with the given properties beside it. */
const wrapper = (properties: Record<string, unknown>) => {
  const fn = (): string => 'wrapper';
  for (const [name, value] of Object.entries(properties)) {
    Object.defineProperty(fn, name, { value });
  }
  return fn;
};

describe(wrappedOriginal.name, () => {
  const original = (): string => 'original';

  it("should give shimmer's wrapper's original", () => {
    const fn = wrapper({ __original: original, __unwrap: () => undefined, __wrapped: true });
    expect(wrappedOriginal(fn)).toBe(original);
  });

  it('should give nothing for a function no instrumentation wrapped', () => {
    expect(wrappedOriginal(original)).toBeUndefined();
    expect(wrappedOriginal(wrapper({ __original: original }))).toBeUndefined();
  });
});
