import { createHash } from 'node:crypto';
import { type CanonicalRecord, dayDigest, EMPTY_DAY_CHECKSUM } from './day-checksums';

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
