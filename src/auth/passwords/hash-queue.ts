import { inSpan } from '../../common/tracing/spans';
import { FifoSemaphore } from '../fifo-semaphore';

/** What the queue has done so far, for the metrics (operations/metrics reads it on scrape). */
export interface HashQueueStats {
  /** Verifications running now (at most `concurrency`). */
  running: number;
  /** Sign-ins admitted and not yet verifying (at most `queueSize`). */
  queued: number;
  /** Sign-ins refused because the queue was full. */
  shed: number;
  /** Verifications finished. */
  verified: number;
  /** Seconds spent waiting for a slot, summed over the finished verifications. */
  waitSecondsTotal: number;
}

/** A place in the queue: run one verification with it, then leave. */
export interface HashTicket {
  run<T>(verification: () => Promise<T>): Promise<T>;
  /** Gives the place back; idempotent, and harmless after run. */
  leave(): void;
}

/**
 * A bounded semaphore in front of password hashing. At most `concurrency` verifications run at
 * once; at most `queueSize` more sign-ins hold a place while they wait (they take it before any
 * database work, so a request that will be shed costs nothing). admit() answers at once:
 * a ticket, or undefined when every place is taken. Slots are handed out in arrival order.
 */
export class HashQueue {
  private readonly slots: FifoSemaphore;
  private admitted = 0;
  private shed = 0;
  private verified = 0;
  private waitSecondsTotal = 0;

  constructor(
    readonly concurrency: number,
    readonly queueSize: number,
  ) {
    this.slots = new FifoSemaphore(concurrency);
  }

  admit(): HashTicket | undefined {
    if (this.admitted >= this.concurrency + this.queueSize) {
      this.shed++;
      return undefined;
    }
    this.admitted++;
    let inQueue = true;
    const leave = (): void => {
      if (!inQueue) return;
      inQueue = false;
      this.admitted--;
    };
    return {
      leave,
      run: async <T>(verification: () => Promise<T>): Promise<T> => {
        const queuedAt = performance.now();
        await inSpan('password.queue_wait', {}, () => this.slots.acquire());
        this.waitSecondsTotal += (performance.now() - queuedAt) / 1000;
        try {
          return await inSpan('password.verify', {}, verification);
        } finally {
          this.verified++;
          leave();
          this.slots.release();
        }
      },
    };
  }

  stats(): HashQueueStats {
    const running = this.slots.stats().held;
    return {
      running,
      queued: this.admitted - running,
      shed: this.shed,
      verified: this.verified,
      waitSecondsTotal: this.waitSecondsTotal,
    };
  }
}
