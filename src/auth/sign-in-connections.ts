import { FifoSemaphore } from './fifo-semaphore';

/**
 * The share of the primary database pool the token route's writes may hold at once (decision
 * 29.11): every statement on the failure table (the reservation, the lock, the reset) runs inside
 * `run`, at most `share` of them at a time, in arrival order. A burst of sign-ins then queues
 * here, holding no connection, and the rest of the pool is left to the data routes: without it
 * 16 sign-ins arriving together waited on the same two rows' locks on 10 of 10 connections.
 */
export class SignInConnections {
  private readonly places: FifoSemaphore;

  constructor(readonly share: number) {
    if (!Number.isInteger(share) || share < 1) throw new RangeError(`share must be ≥ 1: ${share}`);
    this.places = new FifoSemaphore(share);
  }

  /** A quarter of the pool (at least 1): 2 connections of the default 10. */
  static ofPool(poolSize: number): SignInConnections {
    return new SignInConnections(Math.max(1, Math.floor(poolSize / 4)));
  }

  /** Runs one statement once a place is free; gives the place back after, whatever happened. */
  async run<T>(statement: () => Promise<T>): Promise<T> {
    await this.places.acquire();
    try {
      return await statement();
    } finally {
      this.places.release();
    }
  }

  /** Places held now, statements waiting, and the most held at once since start. */
  stats(): { held: number; waiting: number; peak: number } {
    return this.places.stats();
  }
}
