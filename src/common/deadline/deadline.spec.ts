import {
  currentDeadline,
  Deadline,
  DeadlineExceededError,
  isDeadlineExceeded,
  outsideDeadlines,
  runWithDeadline,
} from './deadline';

describe(Deadline.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should expire when its budget runs out, aborting its signal with DeadlineExceededError', () => {
    const deadline = new Deadline(1_000);
    jest.advanceTimersByTime(999);
    expect(deadline.running).toBe(true);
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(deadline.expired).toBe(true);
    expect(deadline.signal.reason).toBeInstanceOf(DeadlineExceededError);
    expect(isDeadlineExceeded(deadline.signal.reason)).toBe(true);
    expect(deadline.remainingMs()).toBe(0);
    expect(() => deadline.throwIfExpired()).toThrow(/deadline of 1000 ms/);
  });

  it('should count the time already spent (the request arrived earlier), and expire at once when none is left', () => {
    const late = new Deadline(1_000, 400);
    jest.advanceTimersByTime(400);
    expect(late.expired).toBe(true);
    expect(new Deadline(1_000, 0).expired).toBe(true);
  });

  it('should stop while suspended (a feed held by Wait) and start again whole on restart', () => {
    const deadline = new Deadline(1_000);
    jest.advanceTimersByTime(900);
    deadline.suspend();
    expect(deadline.remainingMs()).toBe(Infinity);
    jest.advanceTimersByTime(20_000);
    expect(deadline.state).toBe('suspended');
    deadline.restart();
    jest.advanceTimersByTime(999);
    expect(deadline.running).toBe(true);
    jest.advanceTimersByTime(1);
    expect(deadline.expired).toBe(true);
  });

  it('should never expire once finished (the answer, or a report first byte, is out)', () => {
    const deadline = new Deadline(1_000);
    deadline.finish();
    deadline.restart();
    jest.advanceTimersByTime(5_000);
    expect(deadline.state).toBe('finished');
    expect(deadline.signal.aborted).toBe(false);
    expect(() => deadline.throwIfExpired()).not.toThrow();
  });

  it('should call its expiry answer once when the clock runs out, its signal already aborted, and never once finished', () => {
    const calls: boolean[] = [];
    const expiring = new Deadline(1_000);
    expiring.onExpiry(() => calls.push(expiring.signal.aborted));
    const finished = new Deadline(1_000);
    finished.onExpiry(() => calls.push(false));
    finished.finish();
    jest.advanceTimersByTime(5_000);
    expiring.restart();
    expect(calls).toEqual([true]);
  });

  it('should stay expired whatever is called after', () => {
    const deadline = new Deadline(10);
    jest.advanceTimersByTime(10);
    deadline.restart();
    deadline.finish();
    deadline.suspend();
    expect(deadline.expired).toBe(true);
  });

  it('should be the current deadline of the work run under it, and of no work started outside', async () => {
    const deadline = new Deadline(1_000);
    expect(currentDeadline()).toBeUndefined();
    const seen = await runWithDeadline(deadline, async () => {
      await Promise.resolve();
      const inside = currentDeadline();
      const outside = outsideDeadlines(() => currentDeadline());
      return { inside, outside };
    });
    expect(seen.inside).toBe(deadline);
    expect(seen.outside).toBeUndefined();
    deadline.finish();
  });
});
