import { statementText } from './statement-texts';

describe(statementText.name, () => {
  it('should build a shape once and answer the same text after', () => {
    const owner = {};
    const build = jest.fn(() => ['SELECT', '1'].join(' '));
    const first = statementText(owner, 3, build);
    expect(statementText(owner, 3, build)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('should keep the shapes of each owner apart', () => {
    const a = {};
    const b = {};
    expect(statementText(a, 1, () => 'a1')).toBe('a1');
    expect(statementText(a, 2, () => 'a2')).toBe('a2');
    expect(statementText(b, 1, () => 'b1')).toBe('b1');
    expect(statementText(a, 1, () => 'other')).toBe('a1');
  });

  it('should forget an owner s shapes past 256 and build them again', () => {
    const owner = {};
    for (let shape = 0; shape < 256; shape++) statementText(owner, shape, () => `s${shape}`);
    expect(statementText(owner, 0, () => 'again')).toBe('s0');
    statementText(owner, 256, () => 's256');
    expect(statementText(owner, 0, () => 'again')).toBe('again');
  });
});
