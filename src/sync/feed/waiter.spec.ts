import { Waiter } from './waiter';

const waiter = () => new Waiter('things', 'things', 'u1', ['A'], '41');

describe(Waiter.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should start at its position, waiting for nothing yet', () => {
    const w = waiter();
    expect(w.threshold).toBe(41n);
    expect(w.waiting).toBe(false);
  });

  it('should answer false once its time runs out, and wait no more', async () => {
    const w = waiter();
    const next = w.next(1000);
    expect(w.waiting).toBe(true);
    await jest.advanceTimersByTimeAsync(999);
    expect(w.waiting).toBe(true);
    await jest.advanceTimersByTimeAsync(1);
    await expect(next).resolves.toBe(false);
    expect(w.waiting).toBe(false);
  });

  it('should answer true when woken, leaving no timer behind', async () => {
    const w = waiter();
    const next = w.next(60_000);
    expect(jest.getTimerCount()).toBe(1);
    w.wake();
    await expect(next).resolves.toBe(true);
    expect(w.waiting).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('should answer false when released (shutdown), leaving no timer behind', async () => {
    const w = waiter();
    const next = w.next(60_000);
    w.release();
    await expect(next).resolves.toBe(false);
    expect(w.waiting).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('should answer a wait with no time left at once', async () => {
    const next = waiter().next(-5);
    await jest.advanceTimersByTimeAsync(0);
    await expect(next).resolves.toBe(false);
  });

  it('should take a wake or a release while not waiting as nothing', async () => {
    const w = waiter();
    expect(() => w.wake()).not.toThrow();
    expect(() => w.release()).not.toThrow();
    // A later wait is not answered by them.
    let answered: boolean | undefined;
    void w.next(1000).then((arrived) => (answered = arrived));
    await jest.advanceTimersByTimeAsync(500);
    expect(answered).toBeUndefined();
    w.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(answered).toBe(true);
  });
});
