import { Logger } from '@nestjs/common';
import { type LeaseStore, ReaderLease } from './reader-lease';

const TTL_MS = 3000;

/** One lease key with Redis's semantics (SET NX PX, compare-and-set), on the fake clock. */
function sharedLease() {
  let lease: { holder: string; until: number } | null = null;
  const current = () => (lease && lease.until > Date.now() ? lease : null);
  /** The store as one instance sees it; `cut` makes its every call fail (a partition). */
  const seenBy = () => {
    const view = { cut: false };
    const reach = () => {
      if (view.cut) throw new Error('Redis unreachable');
    };
    const store: LeaseStore = {
      claim: (holder, ttlMs) => {
        reach();
        if (current()) return Promise.resolve(false);
        lease = { holder, until: Date.now() + ttlMs };
        return Promise.resolve(true);
      },
      renew: (holder, ttlMs) => {
        reach();
        if (current()?.holder !== holder) return Promise.resolve(false);
        lease = { holder, until: Date.now() + ttlMs };
        return Promise.resolve(true);
      },
      release: (holder) => {
        reach();
        if (current()?.holder === holder) lease = null;
        return Promise.resolve();
      },
    };
    return { store, view };
  };
  return { seenBy, holder: () => current()?.holder ?? null };
}

/** An instance: its lease, and the times it started and stopped reading. */
function instance(name: string, shared: ReturnType<typeof sharedLease>) {
  const { store, view } = shared.seenBy();
  const events: Array<[string, number]> = [];
  const lease = new ReaderLease({
    store,
    holder: name,
    ttlMs: TTL_MS,
    gained: () => {
      events.push(['gained', Date.now()]);
      return Promise.resolve();
    },
    lost: () => {
      events.push(['lost', Date.now()]);
      return Promise.resolve();
    },
  });
  return { lease, view, events };
}

/** Two instances on one lease, `a` started first. */
async function twoStarted() {
  const shared = sharedLease();
  const [a, b] = [instance('a', shared), instance('b', shared)];
  await a.lease.start();
  await b.lease.start();
  return { shared, a, b };
}

describe(ReaderLease.name, () => {
  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('should make the first instance the reader at its start, and keep it by renewing', async () => {
    const shared = sharedLease();
    const a = instance('a', shared);
    await a.lease.start();
    expect(a.lease.held).toBe(true);
    await jest.advanceTimersByTimeAsync(10 * TTL_MS);
    expect(a.events.map(([event]) => event)).toEqual(['gained']);
    expect(shared.holder()).toBe('a');
    await a.lease.stop();
  });

  it('should elect one reader of two, and hand over at once when it stops', async () => {
    const { shared, a, b } = await twoStarted();
    await jest.advanceTimersByTimeAsync(5 * TTL_MS);
    expect([a.lease.held, b.lease.held]).toEqual([true, false]);
    expect(b.events).toEqual([]);
    expect(await a.lease.stop()).toBe(true);
    expect(a.events.map(([event]) => event)).toEqual(['gained', 'lost']);
    expect(shared.holder()).toBeNull();
    // The relay's "released" message: an attempt now, not at the next third of the TTL.
    await b.lease.attempt();
    expect(b.lease.held).toBe(true);
    await b.lease.stop();
  });

  it('should let another take over within the TTL and a third when the reader dies, never two at once', async () => {
    const { a, b } = await twoStarted();
    await jest.advanceTimersByTimeAsync(TTL_MS);
    // a is cut off from Redis (to the others it is dead): it stops reading before its lease runs out.
    const diedAt = Date.now();
    a.view.cut = true;
    await jest.advanceTimersByTimeAsync(2 * TTL_MS);
    const [lostAt] = a.events.filter(([event]) => event === 'lost').map(([, at]) => at);
    const [gainedAt] = b.events.map(([, at]) => at);
    expect(b.lease.held).toBe(true);
    expect(lostAt).toBeLessThan(gainedAt);
    expect(gainedAt - diedAt).toBeLessThanOrEqual(TTL_MS + TTL_MS / 3);
    // Back in touch: it finds the lease taken and stays a follower of b.
    a.view.cut = false;
    await jest.advanceTimersByTimeAsync(2 * TTL_MS);
    expect([a.lease.held, b.lease.held]).toEqual([false, true]);
    await a.lease.stop();
    await b.lease.stop();
  });

  it('should stop reading at once when its lease was taken over', async () => {
    const shared = sharedLease();
    const [a, b] = [instance('a', shared), instance('b', shared)];
    await a.lease.start();
    // A pause past the TTL: the lease expired, and another took it meanwhile.
    jest.setSystemTime(Date.now() + TTL_MS + 1);
    await b.lease.start();
    await jest.advanceTimersByTimeAsync(TTL_MS / 3);
    expect(a.events.map(([event]) => event)).toEqual(['gained', 'lost']);
    expect([a.lease.held, b.lease.held]).toEqual([false, true]);
    await Promise.all([a.lease.stop(), b.lease.stop()]);
  });

  it('should not read while Redis cannot be reached, and take the free lease once it can', async () => {
    const a = instance('a', sharedLease());
    a.view.cut = true;
    await a.lease.start();
    await jest.advanceTimersByTimeAsync(2 * TTL_MS);
    expect(a.lease.held).toBe(false);
    expect(a.events).toEqual([]);
    a.view.cut = false;
    await jest.advanceTimersByTimeAsync(TTL_MS / 3);
    expect(a.lease.held).toBe(true);
    expect(await a.lease.stop()).toBe(true);
  });
});
