import { HashQueue } from './hash-queue';

/** A verification that finishes when the test says so. */
function gate(): { promise: Promise<boolean>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<boolean>((resolve) => (open = () => resolve(true)));
  return { promise, open };
}

describe(HashQueue.name, () => {
  it('should run at most `concurrency` verifications at once, the others in arrival order', async () => {
    const queue = new HashQueue(2, 10);
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      queue.admit()!.run(() => {
        started.push(i);
        return g.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(queue.stats()).toMatchObject({ running: 2, queued: 1 });
    gates[1].open();
    await runs[1];
    expect(started).toEqual([0, 1, 2]);
    gates[0].open();
    gates[2].open();
    await Promise.all(runs);
    expect(queue.stats()).toMatchObject({ running: 0, queued: 0, verified: 3, shed: 0 });
  });

  it('should refuse admission at once when concurrency + queueSize places are taken, and count it shed', () => {
    const queue = new HashQueue(1, 2);
    const tickets = [queue.admit(), queue.admit(), queue.admit()];
    expect(tickets.every(Boolean)).toBe(true);
    expect(queue.admit()).toBeUndefined();
    expect(queue.stats().shed).toBe(1);
    tickets[0]!.leave();
    tickets[0]!.leave();
    expect(queue.admit()).toBeDefined();
    expect(queue.admit()).toBeUndefined();
  });

  it('should give a place back when a verification throws', async () => {
    const queue = new HashQueue(1, 0);
    await expect(
      queue.admit()!.run(() => Promise.reject(new Error('native failure'))),
    ).rejects.toThrow('native failure');
    expect(queue.stats()).toMatchObject({ running: 0, queued: 0 });
    expect(queue.admit()).toBeDefined();
  });
});
