/** What a read after a wake found: nothing yet (first), nothing, or a page held by an insert in flight. */
export type WakeOutcome = 'first' | 'nothing' | 'in-flight';

/** A request held by Wait (FeedWaiters.waitFor). */
export interface FeedWait {
  /**
   * Up to `ms`: true when a row may be readable (read again), false to answer as read. `after`:
   * what the read after the last wake found (`first`: there was none yet).
   */
  next(ms: number, after: WakeOutcome): Promise<boolean>;
  /** Always called once the request answers. */
  end(): void;
}

/**
 * One request held by a waiting feed: the shops it reads, and the id its next read starts after.
 * It is woken (true) when one of its shops has a row above `threshold`, or released (false) when
 * its Wait runs out or the instance shuts down.
 */
export class Waiter {
  /** Woken only by a row above this id: the read's position, raised after a wake for nothing. */
  threshold: bigint;
  /** The highest id of its shops known when it was last woken (ArrivalWatcher). */
  seenAtWake = 0n;
  /** Wakes in a row whose read was held by an insert in flight. */
  retries = 0;
  /** The poll at which a waiter held by an insert in flight reads again. */
  retryAt = 0;
  private settle: ((arrived: boolean) => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** The table it waits on, and its feed's name (`sales`: the metrics' label). */
    readonly table: string,
    readonly feed: string,
    readonly userId: string,
    readonly shops: readonly string[],
    position: string,
  ) {
    this.threshold = BigInt(position);
  }

  /** Waits up to `ms`: true when woken by an arrival, false when the time ran out or released. */
  next(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      this.settle = resolve;
      this.timer = setTimeout(() => this.finish(false), Math.max(0, ms));
    });
  }

  /** Whether it waits now (not between a wake and its next arm). */
  get waiting(): boolean {
    return this.settle !== null;
  }

  wake(): void {
    this.finish(true);
  }

  /** Shutdown: answer now. */
  release(): void {
    this.finish(false);
  }

  private finish(arrived: boolean): void {
    // Mutation testing: `if (true)` survives, equivalent: clearTimeout(null) does nothing.
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const settle = this.settle;
    this.settle = null;
    settle?.(arrived);
  }
}
