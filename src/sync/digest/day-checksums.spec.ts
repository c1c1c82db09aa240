import fc from 'fast-check';
import { canonicalize } from 'json-canonicalize';
import { createHash } from 'node:crypto';
import {
  type CanonicalRecord,
  canonicalRecord,
  dayDigest,
  EMPTY_DAY_CHECKSUM,
} from './day-checksums';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe(dayDigest.name, () => {
  it('should give an empty day the SHA-256 of the empty string', () => {
    expect(EMPTY_DAY_CHECKSUM).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(dayDigest('2026-03-01', [])).toEqual({
      date: '2026-03-01',
      count: 0,
      checksum: EMPTY_DAY_CHECKSUM,
    });
  });

  it('should hash each canonical record as its JSON and one newline, in the order given', () => {
    const records: CanonicalRecord[] = [
      { a: 1, b: '12.50', c: [{ y: 'é', z: null }] },
      { id: '10', note: 'line\nbreak "quoted"' },
    ];
    expect(dayDigest('2026-03-02', records)).toEqual({
      date: '2026-03-02',
      count: 2,
      checksum: sha256(
        '{"a":1,"b":"12.50","c":[{"y":"é","z":null}]}\n{"id":"10","note":"line\\nbreak \\"quoted\\""}\n',
      ),
    });
  });
});

describe(canonicalRecord.name, () => {
  it('should order the keys of every object by UTF-16 code units, arrays kept in order', () => {
    const record = { b: 1, a: [{ z: null, é: 'x', Z: 2 }], '𝄞': 'k', é: 'e' };
    expect(JSON.stringify(canonicalRecord(record))).toBe(
      '{"a":[{"Z":2,"z":null,"é":"x"}],"b":1,"é":"e","𝄞":"k"}',
    );
  });

  it('should order objects of the same keys in another order alike, whatever it saw before', () => {
    const first = canonicalRecord({ b: 1, a: 2, c: 3 });
    const second = canonicalRecord({ c: 3, b: 1, a: 2 });
    expect(JSON.stringify(first)).toBe('{"a":2,"b":1,"c":3}');
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('should write exactly json-canonicalize of any such value, over many key lists', () => {
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.constant(null));
    // A record's keys are field names: never an array index, which an object always orders first.
    const key = fc.string({ maxLength: 3 }).filter((k) => !/^(0|[1-9]\d*)$/.test(k));
    const value = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 6 }),
      ),
    })).node;
    const record = fc.dictionary(key, value, { maxKeys: 8 });
    fc.assert(
      fc.property(record, (r) => {
        expect(JSON.stringify(canonicalRecord(r))).toBe(canonicalize(r));
      }),
      { numRuns: 500 },
    );
  });
});
