import { loginFailureKey } from './login-failure-key';

describe(loginFailureKey.name, () => {
  it('should key an attempt that finds a user by that user, whatever was typed', () => {
    expect(loginFailureKey('demo', '7')).toBe('user:7');
    expect(loginFailureKey('DEMO ', '7')).toBe('user:7');
    expect(loginFailureKey('démo', '7')).toBe('user:7');
  });

  it('should fold case, accents (composed or not) and trailing spaces of a name that finds no user', () => {
    const key = loginFailureKey('ghost');
    expect(key).toBe('name:ghost');
    for (const spelling of ['GHOST', 'ghost ', 'ghost   ', 'ghóst', 'gho\u0301st', 'GHÓST ']) {
      expect([spelling, loginFailureKey(spelling)]).toEqual([spelling, key]);
    }
  });

  it('should keep leading spaces and inner characters of a name that finds no user', () => {
    expect(loginFailureKey(' ghost')).not.toBe(loginFailureKey('ghost'));
    expect(loginFailureKey('gh ost')).not.toBe(loginFailureKey('ghost'));
  });

  it('should never give a typed name the key of a user', () => {
    expect(loginFailureKey('user:7')).not.toBe(loginFailureKey('demo', '7'));
  });

  it('should keep every key within the 64 characters of the column, distinct for distinct long names', () => {
    const a = loginFailureKey('a'.repeat(63) + 'x');
    const b = loginFailureKey('a'.repeat(63) + 'y');
    expect(a.length).toBeLessThanOrEqual(64);
    expect(b.length).toBeLessThanOrEqual(64);
    expect(a).not.toBe(b);
    expect(loginFailureKey('A'.repeat(63) + 'X ')).toBe(a);
  });
});
