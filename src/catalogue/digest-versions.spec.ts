import { DIGEST_VERSIONS, digestFieldsOf, projectRecord } from './digest-versions';

describe(digestFieldsOf.name, () => {
  type Ticket = { id: string; at: string; atUtc: string };
  const fields: Array<keyof Ticket> = ['id', 'at', 'atUtc'];

  it('should put every field a declaration does not date into every version', () => {
    const versions = digestFieldsOf<Ticket>(fields, {});
    for (const version of DIGEST_VERSIONS) expect(versions[version]).toEqual(fields);
  });

  it('should put a dated field into its version and every later one, not into the earlier', () => {
    const newest = DIGEST_VERSIONS[DIGEST_VERSIONS.length - 1];
    const versions = digestFieldsOf<Ticket>(fields, { since: { atUtc: newest } });
    for (const version of DIGEST_VERSIONS) {
      expect(versions[version]).toEqual(version < newest ? ['id', 'at'] : fields);
    }
  });
});

describe(projectRecord.name, () => {
  it("should keep only a version's fields of a record", () => {
    expect(projectRecord({ id: '1', at: 'a', atUtc: 'b' }, ['id', 'at'])).toEqual({
      id: '1',
      at: 'a',
    });
  });
});
