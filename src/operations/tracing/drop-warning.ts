/** One warning a minute at most about spans that could not be exported, with how many. */
export class DropWarning {
  static readonly INTERVAL_MS = 60_000;
  private dropped = 0;
  private lastWarnedAt: number | undefined;

  constructor(
    private readonly warn: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** `count` spans were dropped because of `reason`. */
  spansDropped(count: number, reason: string): void {
    this.dropped += count;
    const now = this.now();
    if (this.lastWarnedAt !== undefined && now - this.lastWarnedAt < DropWarning.INTERVAL_MS) {
      return;
    }
    this.lastWarnedAt = now;
    const spans = this.dropped === 1 ? '1 span' : `${this.dropped} spans`;
    this.dropped = 0;
    this.warn(
      `Traces are not exported (${spans} dropped; the next warning in a minute at the earliest): ${reason}`,
    );
  }
}
