/**
 * At most `size` holders at once; the others wait in arrival order. release() hands the place
 * straight to the next in line (the number held stays the same), or frees it.
 */
export class FifoSemaphore {
  private readonly waiting: Array<() => void> = [];
  private held = 0;
  private peak = 0;

  constructor(readonly size: number) {}

  acquire(): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      this.peak = Math.max(this.peak, this.held);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }

  /** Places held now, holders waiting, and the most held at once so far. */
  stats(): { held: number; waiting: number; peak: number } {
    return { held: this.held, waiting: this.waiting.length, peak: this.peak };
  }
}
