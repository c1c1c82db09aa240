import { AsyncLocalStorage } from 'node:async_hooks';

/** The code of the error a request's database work fails with once its deadline has passed. */
export const DEADLINE_EXCEEDED = 'POS_API_DEADLINE_EXCEEDED';

/** The work of a request (or a wait for a pool connection) ran past its deadline. */
export class DeadlineExceededError extends Error {
  readonly code = DEADLINE_EXCEEDED;

  constructor(message = 'The request ran past its deadline.') {
    super(message);
    this.name = 'DeadlineExceededError';
  }
}

export function isDeadlineExceeded(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === DEADLINE_EXCEEDED;
}

type DeadlineState = 'running' | 'suspended' | 'finished' | 'expired';

/**
 * The deadline of one request (REQUEST_DEADLINE_MS, decision 27.3): a clock that, when it runs
 * out, aborts `signal`; the request is then answered 503 (enforceRequestDeadlines), its waits for
 * a pool connection fail and its queries are cancelled (database/deadline/). Its states:
 *
 * - running: the clock counts;
 * - suspended: a feed held by `Wait` on purpose; the clock is stopped;
 * - restarted (running again): the read after a wake gets the whole deadline anew;
 * - finished: the answer is ready (a report's first byte): nothing is cut any more;
 * - expired: the clock ran out while running; final.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private endsAt = 0;
  private current: DeadlineState = 'running';
  private expiry: (() => void) | undefined;

  /** `remainingMs`: what is left of the budget now (a request's time since arrival deducted). */
  constructor(
    private readonly budgetMs: number,
    remainingMs = budgetMs,
  ) {
    this.arm(remainingMs);
  }

  /** Aborted when the clock runs out, with a DeadlineExceededError as its reason. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get state(): DeadlineState {
    return this.current;
  }

  get running(): boolean {
    return this.current === 'running';
  }

  get expired(): boolean {
    return this.current === 'expired';
  }

  /** Milliseconds left while running; Infinity when the clock is stopped, 0 once expired. */
  remainingMs(): number {
    if (this.current === 'expired') return 0;
    if (this.current !== 'running') return Infinity;
    return Math.max(0, this.endsAt - performance.now());
  }

  /** Throws the deadline's error once it has expired (work must not go on). */
  throwIfExpired(): void {
    if (this.expired) throw this.signal.reason as Error;
  }

  /** A hold on purpose (a feed's Wait): the clock stops until `restart`. */
  suspend(): void {
    if (this.current !== 'running') return;
    this.disarm();
    this.current = 'suspended';
  }

  /** The clock starts again with the whole budget (the read after a wake). */
  restart(): void {
    if (this.current === 'expired' || this.current === 'finished') return;
    this.disarm();
    this.current = 'running';
    this.arm(this.budgetMs);
  }

  /** Calls `answer` when the clock runs out, after `signal` is aborted (the request's 503). */
  onExpiry(answer: () => void): void {
    this.expiry = answer;
  }

  /** The answer is ready: the deadline no longer applies. */
  finish(): void {
    if (this.current === 'expired') return;
    this.disarm();
    this.current = 'finished';
  }

  private arm(ms: number): void {
    this.endsAt = performance.now() + ms;
    if (ms <= 0) {
      this.expire();
      return;
    }
    this.timer = setTimeout(() => this.expire(), ms);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private expire(): void {
    if (this.current !== 'running') return;
    this.timer = undefined;
    this.current = 'expired';
    this.controller.abort(
      new DeadlineExceededError(`The request ran past its deadline of ${this.budgetMs} ms.`),
    );
    this.expiry?.();
  }
}

const storage = new AsyncLocalStorage<Deadline>();

/** Runs `work` (and everything it starts) under `deadline`. */
export function runWithDeadline<T>(deadline: Deadline, work: () => T): T {
  return storage.run(deadline, work);
}

/** The deadline of the request whose work is running, if any. */
export function currentDeadline(): Deadline | undefined {
  return storage.getStore();
}

/**
 * Runs `start` outside any request's deadline: for background work a request happens to start
 * (a feed table's poll, shared by every waiter), which must not be cut by that request's clock.
 */
export function outsideDeadlines<T>(start: () => T): T {
  return storage.exit(start);
}
