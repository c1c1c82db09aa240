import fc from 'fast-check';
import { canonicalize } from 'json-canonicalize';
import { canonicalJson, dayChecksum } from '../../packages/client/src/index';
import type { Json } from '../../packages/client/src/mirror/jcs';

/** The mirror's JCS against RFC 8785's own examples (sections 3.2.2, 3.2.3 and appendix B). */
describe('Client: RFC 8785 canonical JSON of the mirror (issue 25)', () => {
  it("should write the RFC's sample of 3.2.2 byte for byte", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        ' "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('should sort members by UTF-16 code units as in 3.2.3', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",' +
        ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",' +
        ' "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    );
    // JSON.parse gives integer-like keys first: compare the text's order instead.
    const order = [...canonicalJson(input).matchAll(/:"([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('should write the IEEE 754 value %s as %s (appendix B)', (bits, text) => {
    const value = Buffer.from(bits, 'hex').readDoubleBE(0);
    expect(canonicalJson(value)).toBe(text);
  });

  it('should refuse NaN and Infinity, which JSON cannot hold (appendix B)', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });

  it('should hash a day as the published rule says: each canonical line and a newline', () => {
    expect(dayChecksum([])).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    const { createHash } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const day: Json[] = [{ id: '2', b: 1, a: [{ y: null, x: 'é' }] }, { id: '10' }];
    const text = '{"a":[{"x":"é","y":null}],"b":1,"id":"2"}\n{"id":"10"}\n';
    expect(dayChecksum(day)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it("should write exactly what the service's JCS (json-canonicalize) writes, on any JSON", () => {
    const json = fc.jsonValue() as fc.Arbitrary<Json>;
    fc.assert(
      fc.property(json, (value) => canonicalJson(value) === canonicalize(value)),
      { numRuns: 2000 },
    );
  });
});
