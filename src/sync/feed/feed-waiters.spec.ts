import type { AppConfig } from '../../config/app-config';
import type { ReadRouter } from '../../database/replicas/read-router';
import { callerClaims } from '../../common/testing/caller.fixture';
import { shopsInScope } from '../../wall/shop-scope';
import { arrivalsTable } from '../changes/testing/arrivals-table';
import { FeedWaiters } from './feed-waiters';

describe(`${FeedWaiters.name}: waiting for arrivals`, () => {
  const INTERVAL_MS = 250;
  const config = {
    FEED_MAX_WAITERS: 100,
    FEED_MAX_WAITERS_PER_USER: 10,
    FEED_POLL_INTERVAL_MS: INTERVAL_MS,
  } as AppConfig;

  /** Waiters whose feeds wait on the table `things` of an in-memory SQLite. */
  function waiting() {
    const table = arrivalsTable('things');
    const reads = { reader: () => table.reader, withPrimary: table.withPrimary };
    return { ...table, waiters: new FeedWaiters(config, reads as unknown as ReadRouter) };
  }
  /** The wait of a caller's feed request for `shopCode` (null: every claimed shop), after id 5. */
  const waitOf = (waiters: FeedWaiters, shopCodes: string[], shopCode: string | null) => {
    const caller = callerClaims({ shopCodes });
    const scope = shopsInScope(caller, shopCode ?? undefined);
    return waiters.waitFor('things', 'things', caller.userId, scope, '5');
  };

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should wake a wait for a row of the ShopCode it reads, not of another claimed shop', async () => {
    const { waiters, insert } = waiting();
    const wait = waitOf(waiters, ['SHOP1', 'SHOP2'], 'SHOP2');
    let arrived: boolean | undefined;
    void wait.next(30_000, 'first').then((a) => (arrived = a));
    insert('SHOP1', 6);
    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    expect(arrived).toBeUndefined();
    insert('SHOP2', 7);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(arrived).toBe(true);
    wait.end();
  });

  it('should never wake a wait for a shop outside the claims, and answer it when its time runs out', async () => {
    const { waiters, insert, statements } = waiting();
    const wait = waitOf(waiters, ['SHOP1'], 'SHOP9');
    const next = wait.next(30_000, 'first');
    insert('SHOP9', 6);
    await jest.advanceTimersByTimeAsync(30_000);
    await expect(next).resolves.toBe(false);
    expect(statements).toHaveLength(0);
    wait.end();
  });

  it('should let the wait go when it ends', async () => {
    const { waiters } = waiting();
    const wait = waitOf(waiters, ['SHOP1'], null);
    const next = wait.next(30_000, 'first');
    expect(waiters.counts()).toEqual(new Map([['things', 1]]));
    wait.end();
    await expect(next).resolves.toBe(false);
    expect(waiters.counts()).toEqual(new Map([['things', 0]]));
  });
});
