import { currentDeadline, Deadline, runWithDeadline } from '../../common/deadline/deadline';
import { holdForArrivals } from './hold';
import type { FeedWait } from './waiter';

type Row = { id: string };
type Slice = { rows: Row[] };

/** A feed whose table wakes its waiter `wakes` times, each after `heldMs`; its reads find `found`. */
function feed(wakes: number, heldMs: number, found: Row[][]) {
  const reads: Array<{ state: string; remainingMs: number }> = [];
  let left = wakes;
  const wait: FeedWait = {
    next: async () => {
      if (left-- <= 0) return false;
      await jest.advanceTimersByTimeAsync(heldMs);
      return true;
    },
    end: () => undefined,
  };
  const readAgain = (): Promise<Slice> => {
    const deadline = currentDeadline();
    reads.push({ state: String(deadline?.state), remainingMs: Number(deadline?.remainingMs()) });
    return Promise.resolve({ rows: found.shift() ?? [] });
  };
  const holdsAgain = (slice: Slice) =>
    slice.rows.length === 0 ? { seconds: 20, position: 'p', inFlight: false } : undefined;
  return { wait, readAgain, holdsAgain, reads };
}

describe(holdForArrivals.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const hold = { seconds: 20, position: 'p', inFlight: false };

  it('should stop the deadline while held and give the read after each wake the whole deadline', async () => {
    const current = new Deadline(1_000);
    const { wait, readAgain, holdsAgain, reads } = feed(2, 5_000, [[], [{ id: '7' }]]);
    // The first read (before the hold) has spent 400 ms of the deadline.
    await jest.advanceTimersByTimeAsync(400);
    const slice = await runWithDeadline(current, () =>
      holdForArrivals(wait, hold, { rows: [] as Row[] }, readAgain, holdsAgain),
    );
    expect(slice.rows).toEqual([{ id: '7' }]);
    // Held 5 s twice with a deadline of 1 s: never expired, and each read starts with 1 s.
    expect(reads).toEqual([
      { state: 'running', remainingMs: 1_000 },
      { state: 'running', remainingMs: 1_000 },
    ]);
    expect(current.expired).toBe(false);
    current.finish();
  });

  it('should answer the empty slice, not expired, when the Wait runs out', async () => {
    const current = new Deadline(1_000);
    const { wait, readAgain, holdsAgain, reads } = feed(0, 0, []);
    const slice = await runWithDeadline(current, () =>
      holdForArrivals(wait, hold, { rows: [] as Row[] }, readAgain, holdsAgain),
    );
    await jest.advanceTimersByTimeAsync(20_000);
    expect(slice.rows).toEqual([]);
    expect(reads).toEqual([]);
    expect(current.expired).toBe(false);
  });
});
