import { RefusalFloor } from './refusal-floor';

/** Whether the promise has settled, after every callback already due has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await jest.advanceTimersByTimeAsync(0);
  return done;
}

describe(RefusalFloor.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should hold a refusal until the floor after its request started, to the millisecond', async () => {
    const floor = new RefusalFloor(200);
    const startedAt = performance.now();
    await jest.advanceTimersByTimeAsync(30);
    const held = floor.hold(startedAt);
    await jest.advanceTimersByTimeAsync(169);
    expect(await settled(held)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(held)).toBe(true);
    expect(floor.stats()).toEqual({ held: 1, overran: 0, paddedSecondsTotal: 0.17 });
  });

  it('should let a refusal already at or past the floor leave at once, and count it', async () => {
    const floor = new RefusalFloor(200);
    const startedAt = performance.now();
    await jest.advanceTimersByTimeAsync(200);
    expect(await settled(floor.hold(startedAt))).toBe(true);
    await jest.advanceTimersByTimeAsync(50);
    expect(await settled(floor.hold(startedAt))).toBe(true);
    expect(floor.stats()).toEqual({ held: 0, overran: 2, paddedSecondsTotal: 0 });
  });

  it('should add up what it held, over many refusals', async () => {
    const floor = new RefusalFloor(100);
    const first = floor.hold(performance.now());
    await jest.advanceTimersByTimeAsync(40);
    const second = floor.hold(performance.now() - 10);
    await jest.advanceTimersByTimeAsync(90);
    expect([await settled(first), await settled(second)]).toEqual([true, true]);
    expect(floor.stats()).toEqual({ held: 2, overran: 0, paddedSecondsTotal: 0.19 });
  });

  it('should hold nothing with a floor of 0 (LOGIN_MIN_RESPONSE_MS=0)', async () => {
    const floor = new RefusalFloor(0);
    expect(await settled(floor.hold(performance.now()))).toBe(true);
    expect(floor.stats()).toEqual({ held: 0, overran: 1, paddedSecondsTotal: 0 });
  });
});
