import { FairQueue, QueueRefused } from './fair-queue';

const limits = { capacity: 2, perUser: 2, waitingPerUser: 10, waitingTotal: 100 };

const settle = () => new Promise((r) => setImmediate(r));

/** A queue whose calls record the order they start in, and the function that ends each. */
function recorded(queue: FairQueue) {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const enter = (user: string, label: string, signal?: AbortSignal) =>
    queue.enter(user, signal).then((end) => {
      started.push(label);
      ends.set(label, end);
    });
  const end = (label: string) => {
    const done = ends.get(label);
    if (!done) throw new Error(`${label} is not running`);
    done();
  };
  return { started, enter, end };
}

describe(FairQueue.name, () => {
  it('should let a user alone run their share at once and make the next call wait for a place', async () => {
    const queue = new FairQueue(limits);
    const { started, enter, end } = recorded(queue);
    await Promise.all([enter('A', 'A1'), enter('A', 'A2')]);
    const third = enter('A', 'A3');
    await settle();
    expect(started).toEqual(['A1', 'A2']);
    expect([queue.runningOf('A'), queue.waitingOf('A')]).toEqual([2, 1]);
    end('A1');
    await third;
    expect(started).toEqual(['A1', 'A2', 'A3']);
    end('A1'); // idempotent: A2 and A3 still hold both places
    expect(queue.runningOf('A')).toBe(2);
  });

  it("should give each freed place round-robin between users, so one user's tenth call waits behind another's first", async () => {
    const queue = new FairQueue(limits);
    const { started, enter, end } = recorded(queue);
    await Promise.all([enter('A', 'A1'), enter('A', 'A2')]);
    const waiting = Array.from({ length: 8 }, (_, i) => enter('A', `A${i + 3}`));
    await settle();
    waiting.push(enter('B', 'B1'), enter('B', 'B2'), enter('C', 'C1'));
    await settle();
    // Each answered call frees one place; the oldest running call ends first.
    for (let turn = 0; turn < 11; turn++) {
      end(started[turn]);
      await settle();
    }
    await Promise.all(waiting);
    expect(started).toEqual([
      'A1',
      'A2',
      'B1', // A1's place: A still runs A2, B runs nothing
      'A3', // A2's place: A and C run nothing, A is first in the round
      'C1',
      'B2',
      'A4',
      'A5',
      'A6',
      'A7',
      'A8',
      'A9',
      'A10',
    ]);
  });

  it('should keep a user to their share of running calls while places are free for others', async () => {
    const queue = new FairQueue({ ...limits, capacity: 3, perUser: 1 });
    const { started, enter } = recorded(queue);
    const a = [enter('A', 'A1'), enter('A', 'A2')];
    await settle();
    await enter('B', 'B1');
    expect(started).toEqual(['A1', 'B1']);
    expect(queue.waitingOf('A')).toBe(1);
    void a;
  });

  it('should refuse at once a call past the user share of running and waiting calls, not another user', async () => {
    const queue = new FairQueue({ ...limits, waitingPerUser: 1 });
    const { enter } = recorded(queue);
    await Promise.all([enter('A', 'A1'), enter('A', 'A2')]);
    void enter('A', 'A3');
    await expect(queue.enter('A')).rejects.toEqual(new QueueRefused('user-share'));
    void enter('B', 'B1');
    await settle();
    expect(queue.waitingOf('B')).toBe(1);
  });

  it('should take a call out of the line, refused as waited, when its signal aborts, and leave the others their order', async () => {
    const queue = new FairQueue(limits);
    const { started, enter, end } = recorded(queue);
    await Promise.all([enter('A', 'A1'), enter('A', 'A2')]);
    const deadline = new AbortController();
    const late = queue.enter('B', deadline.signal);
    const next = enter('C', 'C1');
    await settle();
    deadline.abort();
    await expect(late).rejects.toEqual(new QueueRefused('waited'));
    expect(queue.waitingOf('B')).toBe(0);
    end('A1');
    await next;
    expect(started).toEqual(['A1', 'A2', 'C1']);
    const aborted = AbortSignal.abort();
    await expect(queue.enter('D', aborted)).rejects.toEqual(new QueueRefused('waited'));
  });

  it('should refuse as saturated only a call that would wait when every waiting place of the instance is taken', async () => {
    const queue = new FairQueue({ ...limits, capacity: 1, waitingTotal: 2 });
    const { enter, end } = recorded(queue);
    await enter('A', 'A1');
    void enter('B', 'B1');
    void enter('C', 'C1');
    await settle();
    await expect(queue.enter('D')).rejects.toEqual(new QueueRefused('saturated'));
    end('A1');
    await settle();
    // B1 runs, C1 waits: one waiting place is free again.
    const d = queue.enter('D');
    await settle();
    expect(queue.waitingOf('D')).toBe(1);
    void d;
  });
});
