import type { DataSource } from 'typeorm';
import { currentDeadline } from '../common/deadline/deadline';
import { callerClaims } from '../common/testing/caller.fixture';
import type { AppConfig } from '../config/app-config';
import { MAX_READ_AHEAD_PAGES_PER_USER } from '../config/limits';
import { ReadAhead } from './read-ahead';

const ALICE = callerClaims({ userId: '1', shopCodes: ['S1', 'S2'] });
const BOB = callerClaims({ userId: '2', shopCodes: ['S1', 'S2'] });
const query = (afterId: string, overrides: object = {}) => ({
  shopCode: null,
  from: null,
  to: null,
  after: { time: '2026-01-01 00:00:00.000', id: afterId },
  limit: 100,
  ...overrides,
});
const page = (id: string) => ({ rows: [{ id }], next: null });

function readAhead(env: Partial<AppConfig> = {}, primary: DataSource | null = null) {
  const config = { LIST_READ_AHEAD_MS: 1_000, LIST_READ_AHEAD_MAX_PAGES: 8, ...env };
  return new ReadAhead(config as AppConfig, primary);
}

/** A MySQL DataSource whose pool has `inUse` of `size` connections taken and `waiting` queued. */
function pool(size: number, inUse: number, waiting = 0): DataSource {
  const queue = (length: number) => ({ length });
  return {
    isInitialized: true,
    options: { type: 'mysql' },
    driver: {
      pool: {
        config: { connectionLimit: size },
        _allConnections: queue(size),
        _freeConnections: queue(size - inUse),
        _connectionQueue: queue(waiting),
      },
    },
  } as unknown as DataSource;
}

const unchanged = () => Promise.resolve(true);

describe(ReadAhead.name, () => {
  afterEach(() => jest.useRealTimers());

  it('should give a page read ahead to the same caller for the same route and query, once', async () => {
    const ahead = readAhead();
    const read = jest.fn(() => Promise.resolve(page('a')));
    ahead.start(ALICE, 'sales', query('5'), read);
    expect(read).toHaveBeenCalledTimes(1);
    await expect(ahead.take(ALICE, 'sales', query('5'), unchanged)).resolves.toEqual(page('a'));
    expect(ahead.take(ALICE, 'sales', query('5'), unchanged)).toBeUndefined();
    expect(ahead.counts()).toEqual({
      hits: 1,
      stale: 0,
      misses: 1,
      wasted: 0,
      failed: 0,
      skipped: 0,
    });
    expect(ahead.size).toBe(0);
  });

  it('should serve a page taken only if the check finds it unchanged, else answer null and count it stale', async () => {
    const ahead = readAhead();
    ahead.start(ALICE, 'sales', query('5'), () => Promise.resolve(page('a')));
    ahead.start(ALICE, 'sales', query('6'), () => Promise.resolve(page('b')));
    const check = jest.fn(() => Promise.resolve(false));
    await expect(ahead.take(ALICE, 'sales', query('5'), check)).resolves.toBeNull();
    expect(check).toHaveBeenCalledWith(page('a'));
    await expect(
      ahead.take(ALICE, 'sales', query('6'), () => Promise.reject(new Error('gone'))),
    ).resolves.toBeNull();
    expect(ahead.counts()).toMatchObject({ hits: 0, stale: 2, misses: 0 });
    expect(ahead.size).toBe(0);
  });

  it('should never read ahead on the embedded SQLite database', () => {
    const sqlite = { options: { type: 'better-sqlite3' } } as unknown as DataSource;
    expect(readAhead({}, sqlite).enabled).toBe(false);
    expect(readAhead({}, pool(10, 0)).enabled).toBe(true);
  });

  it('should never give a page to another user, another shop scope, another route or another query', () => {
    const ahead = readAhead();
    ahead.start(ALICE, 'sales', query('5'), () => Promise.resolve(page('a')));
    expect(ahead.take(BOB, 'sales', query('5'), unchanged)).toBeUndefined();
    // The same user with a token that claims other shops: the wall would read other shops.
    expect(
      ahead.take({ ...ALICE, shopCodes: ['S1'] }, 'sales', query('5'), unchanged),
    ).toBeUndefined();
    expect(
      ahead.take({ ...ALICE, shopCodes: ['S1', 'S2', 'S3'] }, 'sales', query('5'), unchanged),
    ).toBeUndefined();
    expect(ahead.take(ALICE, 'payments', query('5'), unchanged)).toBeUndefined();
    expect(ahead.take(ALICE, 'sales', query('6'), unchanged)).toBeUndefined();
    expect(ahead.take(ALICE, 'sales', query('5', { limit: 99 }), unchanged)).toBeUndefined();
    expect(ahead.take(ALICE, 'sales', query('5', { shopCode: 'S1' }), unchanged)).toBeUndefined();
    expect(
      ahead.take(ALICE, 'sales', query('5', { to: '2026-02-01 00:00:00.000' }), unchanged),
    ).toBeUndefined();
    expect(ahead.counts().misses).toBe(8);
    // Still there for its own request; the claims' order does not matter (the wall sorts them).
    expect(
      ahead.take({ ...ALICE, shopCodes: ['S2', 'S1'] }, 'sales', query('5'), unchanged),
    ).toBeDefined();
  });

  it('should drop a page nobody asked for after LIST_READ_AHEAD_MS, counted as wasted', () => {
    jest.useFakeTimers();
    const ahead = readAhead({ LIST_READ_AHEAD_MS: 1_500 });
    ahead.start(ALICE, 'sales', query('5'), () => Promise.resolve(page('a')));
    jest.advanceTimersByTime(1_499);
    expect(ahead.size).toBe(1);
    jest.advanceTimersByTime(1);
    expect(ahead.size).toBe(0);
    expect(ahead.take(ALICE, 'sales', query('5'), unchanged)).toBeUndefined();
    expect(ahead.counts()).toMatchObject({ wasted: 1, hits: 0 });
  });

  it('should run the read under a deadline of its own, LIST_READ_AHEAD_MS long', async () => {
    const ahead = readAhead({ LIST_READ_AHEAD_MS: 700 });
    let budget: number | undefined;
    ahead.start(ALICE, 'sales', query('5'), () => {
      budget = currentDeadline()?.remainingMs();
      return Promise.resolve(page('a'));
    });
    await ahead.take(ALICE, 'sales', query('5'), unchanged);
    expect(budget).toBeGreaterThan(600);
    expect(budget).toBeLessThanOrEqual(700);
  });

  it('should hold at most LIST_READ_AHEAD_MAX_PAGES pages, and the per-user bound for one user', () => {
    const ahead = readAhead({ LIST_READ_AHEAD_MAX_PAGES: 3 });
    const read = jest.fn(() => Promise.resolve(page('a')));
    for (let i = 0; i < MAX_READ_AHEAD_PAGES_PER_USER + 1; i++) {
      ahead.start(ALICE, 'sales', query(String(i)), read);
    }
    expect(read).toHaveBeenCalledTimes(MAX_READ_AHEAD_PAGES_PER_USER);
    for (const userId of ['2', '3', '4']) {
      ahead.start({ ...BOB, userId }, 'sales', query('1'), read);
    }
    expect(ahead.size).toBe(3);
    expect(read).toHaveBeenCalledTimes(3);
    expect(ahead.counts().skipped).toBe(3);
    // Taking one frees its place, for the user and in all.
    void ahead.take(ALICE, 'sales', query('0'), unchanged);
    ahead.start(ALICE, 'sales', query('9'), read);
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('should not read the same page ahead twice while one is held', () => {
    const ahead = readAhead();
    const read = jest.fn(() => Promise.resolve(page('a')));
    ahead.start(ALICE, 'sales', query('5'), read);
    ahead.start(ALICE, 'sales', query('5'), read);
    expect(read).toHaveBeenCalledTimes(1);
    expect(ahead.counts().skipped).toBe(1);
  });

  it('should read nothing ahead while a request waits for a connection or half the pool is in use', () => {
    const read = jest.fn(() => Promise.resolve(page('a')));
    readAhead({}, pool(10, 4)).start(ALICE, 'sales', query('5'), read);
    expect(read).toHaveBeenCalledTimes(1);
    readAhead({}, pool(10, 5)).start(ALICE, 'sales', query('5'), read);
    readAhead({}, pool(10, 0, 1)).start(ALICE, 'sales', query('5'), read);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('should answer null for a read that failed, and drop it silently', async () => {
    const ahead = readAhead();
    let fail: (error: Error) => void = () => undefined;
    ahead.start(ALICE, 'sales', query('5'), () => new Promise((_, reject) => (fail = reject)));
    const taken = ahead.take(ALICE, 'sales', query('5'), unchanged);
    fail(new Error('connection lost'));
    await expect(taken).resolves.toBeNull();
    ahead.start(ALICE, 'sales', query('6'), () => Promise.reject(new Error('timeout')));
    await new Promise(setImmediate);
    expect(ahead.take(ALICE, 'sales', query('6'), unchanged)).toBeUndefined();
    expect(ahead.counts()).toMatchObject({ failed: 2, hits: 0, stale: 0 });
  });

  it('should settle once every page held has been read or has failed, and not before', async () => {
    const ahead = readAhead();
    let finish: (slice: unknown) => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    ahead.start(ALICE, 'sales', query('5'), () => new Promise((resolve) => (finish = resolve)));
    ahead.start(BOB, 'sales', query('5'), () => new Promise((_, reject) => (fail = reject)));
    let settled = false;
    const done = ahead.settled().then(() => (settled = true));
    finish(page('6'));
    await new Promise(setImmediate);
    expect(settled).toBe(false);
    fail(new Error('connection lost'));
    await done;
    expect(settled).toBe(true);
    await expect(ahead.settled()).resolves.toBeUndefined();
  });

  it('should read nothing ahead and find nothing when LIST_READ_AHEAD_MS is 0', () => {
    const ahead = readAhead({ LIST_READ_AHEAD_MS: 0 });
    const read = jest.fn(() => Promise.resolve(page('a')));
    ahead.start(ALICE, 'sales', query('5'), read);
    expect(read).not.toHaveBeenCalled();
    expect(ahead.take(ALICE, 'sales', query('5'), unchanged)).toBeUndefined();
    expect(ahead.enabled).toBe(false);
    // Every outcome (hits, stale, misses, wasted, failed, skipped) still 0.
    expect(Object.values(ahead.counts())).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
