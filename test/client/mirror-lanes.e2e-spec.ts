import { inLanes, LANES } from '../../packages/client/src/mirror/lanes';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Issue 55, item 4: a first copy reads two tables at once, and one failure stops the pass. */
describe('The mirror: tables read in lanes', () => {
  it('should run at most LANES works at once and answer their results in the items order', async () => {
    let running = 0;
    let most = 0;
    const results = await inLanes(['a', 'b', 'c', 'd', 'e'], undefined, async (item) => {
      running++;
      most = Math.max(most, running);
      // Later items finish first: the results are still in the items' order.
      for (let i = 0; i < 'e'.charCodeAt(0) - item.charCodeAt(0); i++) await tick();
      running--;
      return item.toUpperCase();
    });
    expect(LANES).toBe(2);
    expect(most).toBe(LANES);
    expect(results).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('should abort the other lane at the first failure, start nothing more, and throw it once both stopped', async () => {
    const started: string[] = [];
    let otherStopped = false;
    const failure = new Error('payments: cut 6 times');
    const pass = inLanes(
      ['sales', 'payments', 'cash-movements'],
      undefined,
      async (item, signal) => {
        started.push(item);
        if (item === 'payments') {
          await tick();
          throw failure;
        }
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        await tick();
        otherStopped = true;
        throw new Error('aborted');
      },
    );
    await expect(pass).rejects.toBe(failure);
    expect(otherStopped).toBe(true);
    expect(started).toEqual(['sales', 'payments']);
  });

  it("should give the caller's abort to every lane", async () => {
    const caller = new AbortController();
    const seen: unknown[] = [];
    const pass = inLanes([1, 2], caller.signal, async (_item, signal) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      seen.push(signal.reason);
      throw signal.reason;
    });
    caller.abort(new Error('SIGINT'));
    await expect(pass).rejects.toThrow('SIGINT');
    expect(seen).toHaveLength(2);
  });
});
