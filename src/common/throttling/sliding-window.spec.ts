import fc from 'fast-check';
import { MemorySlidingWindow } from './sliding-window';

const WINDOW = 60_000;
const LIMIT = 12;

describe(MemorySlidingWindow.name, () => {
  let now = 0;
  const window = () => new MemorySlidingWindow(() => now);

  beforeEach(() => {
    now = 1_000_000;
  });

  it('should allow 12 calls, refuse the 13th until the oldest leaves the window', async () => {
    const w = window();
    for (let call = 1; call <= LIMIT; call++) {
      expect(await w.hit('u', WINDOW, LIMIT)).toEqual({
        allowed: true,
        count: call,
        resetMs: WINDOW - (call - 1) * 1000,
      });
      now += 1000;
    }
    // now = start + 12 s: the first call leaves the window at start + 60 s.
    expect(await w.hit('u', WINDOW, LIMIT)).toEqual({ allowed: false, count: 12, resetMs: 48_000 });
    now += 48_000 - 1;
    expect((await w.hit('u', WINDOW, LIMIT)).allowed).toBe(false);
    now += 1;
    expect(await w.hit('u', WINDOW, LIMIT)).toMatchObject({ allowed: true, count: 12 });
    expect((await w.hit('u', WINDOW, LIMIT)).allowed).toBe(false);
  });

  it('should take a refunded call back out of the window, once, and only that call', async () => {
    const w = window();
    for (let call = 0; call < LIMIT; call++) {
      await w.hit('u', WINDOW, LIMIT, `c${call}`);
      now += 1000;
    }
    expect((await w.hit('u', WINDOW, LIMIT, 'refused')).allowed).toBe(false);
    await w.refund('u', 'refused');
    await w.refund('u', 'c5');
    await w.refund('u', 'c5');
    await w.refund('other', 'c6');
    expect(await w.hit('u', WINDOW, LIMIT, 'again')).toMatchObject({ allowed: true, count: 12 });
    expect((await w.hit('u', WINDOW, LIMIT, 'more')).allowed).toBe(false);
  });

  it('should keep users apart', async () => {
    const w = window();
    for (let call = 0; call < LIMIT; call++) await w.hit('a', WINDOW, LIMIT);
    expect((await w.hit('a', WINDOW, LIMIT)).allowed).toBe(false);
    expect(await w.hit('b', WINDOW, LIMIT)).toMatchObject({ allowed: true, count: 1 });
  });

  it('should never allow more than 12 calls in any 60-second interval, whatever the timing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 120 }),
        async (gaps) => {
          const w = window();
          const allowed: number[] = [];
          for (const gap of gaps) {
            now += gap;
            if ((await w.hit('u', WINDOW, LIMIT)).allowed) allowed.push(now);
          }
          // Every interval [allowed[i], allowed[i] + 60 s) holds at most 12 allowed calls.
          allowed.forEach((start, i) => {
            expect(allowed.slice(i).filter((t) => t < start + WINDOW).length).toBeLessThanOrEqual(
              LIMIT,
            );
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('should keep the calls still in their window when it drops the keys of more than 10,000 clients', async () => {
    const w = window();
    // A key with one call that has left its window and one that has not.
    await w.hit('mixed', 1000, 2);
    now += 600;
    await w.hit('mixed', 1000, 2);
    for (let key = 0; key <= 10_000; key++) await w.hit(`client-${key}`, 1000, 2);
    now += 500;
    // More than 10,000 keys: this hit sweeps; 'mixed' keeps its call of 500 ms ago.
    await w.hit('another', 1000, 2);
    expect(await w.hit('mixed', 1000, 2)).toEqual({ allowed: true, count: 2, resetMs: 500 });
    expect((await w.hit('mixed', 1000, 2)).allowed).toBe(false);
    // A key whose calls are all still in their window keeps them too.
    expect(await w.hit('client-0', 1000, 2)).toEqual({ allowed: true, count: 2, resetMs: 500 });
  });

  it('should say 0 ms to wait when nothing is recorded (a limit of 0 allows nothing)', async () => {
    expect(await window().hit('u', WINDOW, 0)).toEqual({ allowed: false, count: 0, resetMs: 0 });
  });

  it('should start afresh once every call has left the window', async () => {
    const w = window();
    await w.hit('u', 1000, 2, 'a');
    await w.hit('u', 1000, 2, 'b');
    now += 1000;
    expect(await w.hit('u', 1000, 2, 'c')).toEqual({ allowed: true, count: 1, resetMs: 1000 });
    expect(await w.hit('u', 1000, 2, 'd')).toEqual({ allowed: true, count: 2, resetMs: 1000 });
  });

  it('should refund the right call after older ones left the window', async () => {
    const w = window();
    await w.hit('u', 1000, 2, 'old-1');
    now += 500;
    await w.hit('u', 1000, 2, 'old-2');
    now += 500;
    // old-1 has left; old-2 and new are in the window, and the refund takes new back.
    expect(await w.hit('u', 1000, 2, 'new')).toMatchObject({ allowed: true, count: 2 });
    await w.refund('u', 'new');
    expect(await w.hit('u', 1000, 2, 'again')).toEqual({ allowed: true, count: 2, resetMs: 500 });
  });

  it('should refund the oldest call too, and nothing for an id it never recorded', async () => {
    const w = window();
    await w.hit('u', 1000, 2, 'first');
    now += 100;
    await w.hit('u', 1000, 2, 'second');
    await w.refund('u', 'unknown');
    expect((await w.hit('u', 1000, 2, 'refused')).allowed).toBe(false);
    await w.refund('u', 'first');
    // Only second is left: its 1000 ms started 0 ms ago.
    expect(await w.hit('u', 1000, 2, 'third')).toEqual({ allowed: true, count: 2, resetMs: 1000 });
  });

  it('should take nothing back for a call made without an id', async () => {
    const w = window();
    await w.hit('u', 1000, 1);
    await w.refund('u', '');
    expect(await w.hit('u', 1000, 1)).toEqual({ allowed: false, count: 1, resetMs: 1000 });
  });
});
