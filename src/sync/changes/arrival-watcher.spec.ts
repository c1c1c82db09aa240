import { Logger } from '@nestjs/common';
import { arrivalsTable } from './testing/arrivals-table';
import { ArrivalWatcher } from './arrival-watcher';
import { Waiter } from '../feed/waiter';

const INTERVAL_MS = 250;

/** A table `things` the watcher polls every INTERVAL_MS (testing/arrivals-table.ts). */
function primary(readMs = 0) {
  const { withPrimary, ...table } = arrivalsTable('things', readMs);
  return { watcher: new ArrivalWatcher('things', withPrimary, INTERVAL_MS), ...table };
}

/** Lets `n` polls happen (each one interval apart). */
const polls = (n: number) => jest.advanceTimersByTimeAsync(n * INTERVAL_MS);

/** A waiter on `shops` after `position` that waits (armed, as FeedWaiters.next does) for long. */
function waiting(watcher: ArrivalWatcher, shops: string[], position: string, user = 'u1') {
  const waiter = new Waiter('things', 'things', user, shops, position);
  watcher.add(waiter);
  const woken = { count: 0, released: 0 };
  const wait = () => {
    void waiter.next(3_600_000).then((arrived) => (arrived ? woken.count++ : woken.released++));
  };
  watcher.arm(waiter, 'first');
  wait();
  /** Waits again after a wake whose read found `after`. */
  const again = (after: 'nothing' | 'in-flight') => {
    watcher.arm(waiter, after);
    wait();
  };
  return { waiter, woken, again };
}

describe(ArrivalWatcher.name, () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('should send one statement per poll for a thousand waiters, and none once nobody waits', async () => {
    const { watcher, statements, insert } = primary();
    insert('A', 5);
    const waiters = Array.from({ length: 1000 }, (_, i) => waiting(watcher, ['A'], '5', `u${i}`));
    await polls(5);
    expect(statements).toHaveLength(5);
    expect(watcher.polls).toBe(5);
    expect(statements[1].sql).toContain('UNION ALL');
    for (const { waiter } of waiters) {
      waiter.release();
      watcher.remove(waiter);
    }
    await polls(10);
    expect(statements).toHaveLength(5);
  });

  it('should wake only the waiters of the shop that moved, once its id passes their position', async () => {
    const { watcher, insert } = primary();
    insert('A', 5);
    insert('B', 7);
    const a = waiting(watcher, ['A'], '5', 'u1');
    const b1 = waiting(watcher, ['B'], '7', 'u2');
    const b2 = waiting(watcher, ['B'], '7', 'u3');
    await polls(3);
    expect([a.woken.count, b1.woken.count, b2.woken.count]).toEqual([0, 0, 0]);
    insert('B', 8);
    await polls(1);
    expect([a.woken.count, b1.woken.count, b2.woken.count]).toEqual([0, 1, 1]);
    expect(watcher.wakes).toBe(2);
  });

  it('should wake a waiter armed on an empty table at its first row, without a warning', async () => {
    const { watcher, insert } = primary();
    const w = waiting(watcher, ['A'], '0');
    await polls(3);
    expect(w.woken.count).toBe(0);
    insert('A', 1);
    await polls(1);
    expect(w.woken.count).toBe(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('should wake a waiter of several shops when any of them passes its position', async () => {
    const { watcher, insert } = primary();
    insert('A', 6);
    insert('B', 9);
    insert('C', 5);
    // D has no row: its highest id is unknown, and it does not hide the others'.
    const w = waiting(watcher, ['A', 'B', 'C', 'D'], '7');
    await polls(1);
    expect(w.woken.count).toBe(1);
  });

  it('should not wake a waiter of several shops while none of them passes its position', async () => {
    const { watcher, insert } = primary();
    insert('A', 6);
    insert('B', 7);
    const w = waiting(watcher, ['B', 'A'], '7');
    await polls(3);
    expect(w.woken.count).toBe(0);
    insert('A', 8);
    await polls(1);
    expect(w.woken.count).toBe(1);
  });

  it('should not wake a waiter again for the id a read found nothing at, but for the next one', async () => {
    const { watcher, insert } = primary();
    insert('A', 6);
    const w = waiting(watcher, ['A'], '5');
    await polls(1);
    expect(w.woken.count).toBe(1);
    // Its read found nothing at 6 (a row its feed does not serve, or rolled back).
    w.again('nothing');
    await polls(4);
    expect(w.woken.count).toBe(1);
    insert('A', 7);
    await polls(1);
    expect(w.woken.count).toBe(2);
  });

  it('should not wake a waiter between a wake and its next wait', async () => {
    const { watcher, insert } = primary();
    insert('A', 6);
    const w = waiting(watcher, ['A'], '5');
    await polls(1);
    expect(w.woken.count).toBe(1);
    insert('A', 7);
    await polls(2);
    expect(watcher.wakes).toBe(1);
    // Waiting again: the row that arrived meanwhile wakes it at the next poll.
    w.again('nothing');
    await polls(1);
    expect(w.woken.count).toBe(2);
  });

  it('should read again after 1, 1, 2, 4, 8, 8 polls while an insert in flight holds the read, and after 1 once it ends', async () => {
    const { watcher, insert } = primary();
    insert('A', 6);
    const w = waiting(watcher, ['A'], '5');
    await polls(1);
    expect(w.woken.count).toBe(1);
    const pollsUntilWoken = async () => {
      const before = w.woken.count;
      for (let n = 1; n <= 20; n++) {
        await polls(1);
        if (w.woken.count > before) return n;
      }
      return Infinity;
    };
    const gaps: number[] = [];
    for (let i = 0; i < 6; i++) {
      w.again('in-flight');
      gaps.push(await pollsUntilWoken());
    }
    expect(gaps).toEqual([1, 1, 2, 4, 8, 8]);
    // The insert ended (its read found nothing): the next hold starts over at one poll.
    w.again('nothing');
    insert('A', 8);
    expect(await pollsUntilWoken()).toBe(1);
    w.again('in-flight');
    expect(await pollsUntilWoken()).toBe(1);
  });

  it('should poll at once when nudged (a commit in the binary log), and wake a waiter held in flight then', async () => {
    const { watcher, statements, insert } = primary();
    insert('A', 5);
    const w = waiting(watcher, ['A'], '5');
    watcher.nudge();
    await jest.advanceTimersByTimeAsync(0);
    expect(statements).toHaveLength(1);
    expect(w.woken.count).toBe(0);
    insert('A', 6);
    watcher.nudge();
    await jest.advanceTimersByTimeAsync(0);
    expect([statements.length, w.woken.count]).toEqual([2, 1]);
    // Held by an insert in flight: its next read would be 1 poll later; a nudge makes it now.
    w.again('in-flight');
    watcher.nudge();
    await jest.advanceTimersByTimeAsync(0);
    expect([statements.length, w.woken.count]).toEqual([3, 2]);
  });

  it('should poll again right after a poll that a nudge came during, never two side by side', async () => {
    const { watcher, statements, insert } = primary(100);
    insert('A', 5);
    waiting(watcher, ['A'], '5');
    watcher.nudge();
    await jest.advanceTimersByTimeAsync(50); // the nudged poll is reading
    watcher.nudge();
    expect(statements).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(60); // it ended: the second one reads at once
    expect(statements).toHaveLength(2);
    // It ends at 200 ms; the next is an interval after it.
    await jest.advanceTimersByTimeAsync(90 + INTERVAL_MS - 10);
    expect(statements).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(20);
    expect(statements).toHaveLength(3);
  });

  it('should not poll when nudged while nobody waits', async () => {
    const { watcher, statements } = primary();
    watcher.nudge();
    await polls(2);
    expect(statements).toHaveLength(0);
  });

  it('should keep the other waiters of a shop when one leaves, and poll while anybody waits', async () => {
    const { watcher, insert } = primary();
    insert('A', 5);
    insert('B', 4);
    const a1 = waiting(watcher, ['A'], '5', 'u1');
    const a2 = waiting(watcher, ['A'], '5', 'u2');
    const b = waiting(watcher, ['B'], '4', 'u3');
    await polls(1);
    a1.waiter.release();
    watcher.remove(a1.waiter);
    await polls(1);
    insert('A', 6);
    insert('B', 7);
    await polls(1);
    expect([a1.woken.count, a2.woken.count, b.woken.count]).toEqual([0, 1, 1]);
  });

  it('should poll again for a table waited on after everybody left it', async () => {
    const { watcher, statements, insert } = primary();
    insert('A', 5);
    const first = waiting(watcher, ['A'], '5');
    await polls(2);
    first.waiter.release();
    watcher.remove(first.waiter);
    const sent = statements.length;
    await polls(2);
    expect(statements).toHaveLength(sent);
    const second = waiting(watcher, ['A'], '5');
    insert('A', 6);
    await polls(1);
    expect(second.woken.count).toBe(1);
  });

  it('should keep one statement per interval when waiters come and go while a poll reads', async () => {
    const { watcher, statements, insert } = primary(100);
    insert('A', 5);
    const first = waiting(watcher, ['A'], '5', 'u1');
    await jest.advanceTimersByTimeAsync(INTERVAL_MS + 50); // the first poll is reading
    expect(statements).toHaveLength(1);
    const second = waiting(watcher, ['A'], '5', 'u2');
    await jest.advanceTimersByTimeAsync(10 * (INTERVAL_MS + 100));
    // A poll every interval after the previous one ended, never two side by side.
    expect(statements).toHaveLength(11);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS + 100); // the 12th is reading
    for (const { waiter } of [first, second]) {
      waiter.release();
      watcher.remove(waiter);
    }
    await polls(10);
    expect(statements).toHaveLength(12);
  });

  it('should let the waiters wait on while polling fails, warn once per outage, and seed them once it works again', async () => {
    const { watcher, statements, insert, state } = primary();
    insert('A', 6);
    state.down = true;
    const w = waiting(watcher, ['A'], '5');
    await polls(3);
    expect(w.woken).toEqual({ count: 0, released: 0 });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'connection lost' }) },
      'Polling things failed',
    );
    state.down = false;
    await polls(1);
    expect(w.woken.count).toBe(1);
    expect(statements.at(-1)?.params).toEqual(['A']);
    state.down = true;
    await polls(2);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('should not read a shop whose waiters left while its failing poll read', async () => {
    const { watcher, statements, state } = primary(100);
    state.down = true;
    const a = waiting(watcher, ['A'], '5', 'u1');
    const b = waiting(watcher, ['B'], '5', 'u2');
    await jest.advanceTimersByTimeAsync(INTERVAL_MS + 50); // the first poll is reading
    a.waiter.release();
    watcher.remove(a.waiter);
    await jest.advanceTimersByTimeAsync(60); // it failed
    state.down = false;
    await jest.advanceTimersByTimeAsync(INTERVAL_MS); // the second one is reading
    expect(statements.map((s) => s.params)).toEqual([['A', 'B'], ['B']]);
    b.waiter.release();
    watcher.remove(b.waiter);
  });

  it('should not lower its position after a read held by an insert in flight found nothing', async () => {
    const { watcher, insert } = primary();
    insert('A', 6);
    // Its first read was held by an insert in flight above what the poll has seen.
    const w = new Waiter('things', 'things', 'u1', ['A'], '10');
    watcher.add(w);
    watcher.arm(w, 'in-flight');
    let woken = 0;
    void w.next(3_600_000).then((arrived) => arrived && woken++);
    await polls(1);
    expect(woken).toBe(1);
    // The insert rolled back: the read found nothing; rows up to its position are not news.
    watcher.arm(w, 'nothing');
    void w.next(3_600_000).then((arrived) => arrived && woken++);
    insert('A', 7);
    await polls(3);
    expect(woken).toBe(1);
    insert('A', 11);
    await polls(1);
    expect(woken).toBe(2);
  });

  it('should take a waiter removed twice as removed once', () => {
    const { watcher } = primary();
    const a = waiting(watcher, ['A'], '5');
    a.waiter.release();
    watcher.remove(a.waiter);
    expect(() => watcher.remove(a.waiter)).not.toThrow();
  });

  it("should log a failed poll under the watcher's name", async () => {
    const { watcher, state } = primary();
    state.down = true;
    waiting(watcher, ['A'], '5');
    await polls(1);
    expect(warn.mock.contexts[0]).toMatchObject({ context: 'ArrivalWatcher' });
  });
});
