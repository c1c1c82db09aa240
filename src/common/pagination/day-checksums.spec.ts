import { createHash } from 'node:crypto';
import { checksumLine, DayChecksums, EMPTY_DAY_CHECKSUM } from './day-checksums';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe(DayChecksums.name, () => {
  it('should write a record as its RFC 8785 canonical JSON and one newline', () => {
    const line = checksumLine({ b: '12.50', a: 1, c: [{ z: null, y: 'é' }], d: 1e21 });
    expect(line).toBe('{"a":1,"b":"12.50","c":[{"y":"é","z":null}],"d":1e+21}\n');
  });

  it('should give an empty day the SHA-256 of the empty string', () => {
    expect(EMPTY_DAY_CHECKSUM).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('should give every date an entry and hash each day in ascending numeric id order', () => {
    const days = new DayChecksums(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    // (time, id) order: id 10 was rung up before id 9 on the 2nd.
    days.add('2026-03-02', '10', { id: '10' });
    days.add('2026-03-02', '9', { id: '9' });
    days.add('2026-03-03', '11', { id: '11' });
    expect(days.finish()).toEqual([
      { date: '2026-03-01', count: 0, checksum: EMPTY_DAY_CHECKSUM },
      { date: '2026-03-02', count: 2, checksum: sha256('{"id":"9"}\n{"id":"10"}\n') },
      { date: '2026-03-03', count: 1, checksum: sha256('{"id":"11"}\n') },
      { date: '2026-03-04', count: 0, checksum: EMPTY_DAY_CHECKSUM },
    ]);
  });

  it('should refuse a record outside the period or out of date order', () => {
    const late = new DayChecksums(['2026-03-01']);
    expect(() => late.add('2026-03-02', '1', {})).toThrow('outside the period');
    const back = new DayChecksums(['2026-03-01', '2026-03-02']);
    back.add('2026-03-02', '1', {});
    expect(() => back.add('2026-03-01', '2', {})).toThrow('out of order');
  });
});
