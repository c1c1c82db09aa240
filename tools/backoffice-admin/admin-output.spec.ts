import { describeLock, formatList, formatShops, formatUser, UserReport } from './admin-output';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const user = (over: Partial<UserReport> = {}): UserReport => ({
  id: '7',
  username: 'alice',
  displayName: null,
  email: null,
  enabled: true,
  roles: ['ApiUser'],
  shops: ['S1', 'S2'],
  ...over,
});

describe(describeLock.name, () => {
  it('should say locked until when the lock runs, else the recent failures', () => {
    expect(describeLock(undefined, NOW)).toBe('no failures');
    const lock = {
      failures: 5,
      firstFailureAt: '2026-11-22T11:55:00.000Z',
      lockedUntil: '2026-11-22T12:10:00.000Z',
    };
    expect(describeLock(lock, NOW)).toBe(
      'LOCKED until 2026-11-22T12:10:00.000Z (5 consecutive failures)',
    );
    expect(describeLock({ ...lock, lockedUntil: '2026-11-22T11:59:00.000Z' }, NOW)).toMatch(
      /^not locked \(5 recent/,
    );
  });
});

describe(formatUser.name, () => {
  it('should print one field a line', () => {
    expect(formatUser(user({ enabled: false }), NOW).split('\n')).toEqual([
      'User     alice (id 7)',
      'Name     -',
      'E-mail   -',
      'Enabled  NO (sign-in refused)',
      'Roles    ApiUser',
      'Shops    S1, S2',
      'Sign-in  no failures',
    ]);
  });
});

describe(formatList.name, () => {
  it('should print aligned columns', () => {
    expect(
      formatList([user(), user({ username: 'bo', roles: [], shops: [] })], NOW).split('\n'),
    ).toEqual([
      'USERNAME  ENABLED  SHOPS  LOCKED  ROLES',
      'alice     yes      2      no      ApiUser',
      'bo        yes      0      no      -',
    ]);
  });

  it('should say when there are no users', () => {
    expect(formatList([], NOW)).toBe('No users.');
  });
});

describe(formatShops.name, () => {
  it('should print one shop a line, the users it is granted to last', () => {
    const shop = {
      code: 'SHOP001',
      name: 'Madrid Centro',
      timeZone: 'Europe/Madrid',
      currency: 'EUR',
      active: true,
      users: ['alice', 'demo'],
    };
    expect(
      formatShops([shop, { ...shop, code: 'S2', name: 'Lisboa', active: false, users: [] }]).split(
        '\n',
      ),
    ).toEqual([
      'CODE     NAME           ACTIVE  TIME ZONE      CURRENCY  GRANTED TO',
      'SHOP001  Madrid Centro  yes     Europe/Madrid  EUR       alice,demo',
      'S2       Lisboa         no      Europe/Madrid  EUR       -',
    ]);
  });

  it('should say when there are no shops', () => {
    expect(formatShops([])).toBe('No shops.');
  });
});
