import { nestedDeeperThan } from './json-depth';

describe(nestedDeeperThan.name, () => {
  it('should count arrays and objects nested in one another', () => {
    expect(nestedDeeperThan('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(nestedDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(nestedDeeperThan(`${'['.repeat(2000)}${']'.repeat(2000)}`, 32)).toBe(true);
  });

  it('should count siblings once, not one after the other', () => {
    expect(nestedDeeperThan(`[${'[],'.repeat(1000)}[]]`, 2)).toBe(false);
  });

  it('should ignore brackets inside strings, escaped quotes included', () => {
    expect(nestedDeeperThan(`{"username":"${'['.repeat(100)}","p":"\\"[[[["}`, 1)).toBe(false);
    expect(nestedDeeperThan('["\\\\",[[]]]', 2)).toBe(true);
  });
});
