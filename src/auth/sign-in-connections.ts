/**
 * The share of the primary database pool the token route's writes may hold at once (decision
 * 29.11): every statement on the failure table (the reservation, the lock, the reset) runs inside
 * `run`, at most `share` of them at a time, in arrival order. A burst of sign-ins then queues
 * here, holding no connection, and the rest of the pool is left to the data routes: without it
 * 16 sign-ins arriving together waited on the same two rows' locks on 10 of 10 connections.
 */
export class SignInConnections {
  private readonly waiting: Array<() => void> = [];
  private held = 0;
  private peak = 0;

  constructor(readonly share: number) {
    if (!Number.isInteger(share) || share < 1) throw new RangeError(`share must be ≥ 1: ${share}`);
  }

  /** A quarter of the pool (at least 1): 2 connections of the default 10. */
  static ofPool(poolSize: number): SignInConnections {
    return new SignInConnections(Math.max(1, Math.floor(poolSize / 4)));
  }

  /** Runs one statement (or one short sequence) once a place is free; gives the place back after. */
  async run<T>(statement: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await statement();
    } finally {
      this.release();
    }
  }

  /** Places held now, and the most held at once since start (metrics and tests). */
  stats(): { held: number; waiting: number; peak: number } {
    return { held: this.held, waiting: this.waiting.length, peak: this.peak };
  }

  private acquire(): Promise<void> {
    if (this.held < this.share) {
      this.held++;
      this.peak = Math.max(this.peak, this.held);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** A finishing statement hands its place to the next in line (held stays the same). */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}
