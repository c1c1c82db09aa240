import type { Io } from './io.js';

/** "1 page", "2 pages", "0 records". */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * A progress line on standard error (records, pages, rate), rewritten in place on a TTY; one line
 * per page to a file or a pipe.
 */
export class Progress {
  private records = 0;
  private pages = 0;
  private readonly started: number;

  constructor(
    private readonly io: Io,
    private readonly label: string,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  page(records: number): void {
    this.records += records;
    this.pages += 1;
    // One line per page to a file or a pipe: carriage returns belong to a terminal only.
    if (this.enabled) this.io.stderr.write(this.tty ? `\r${this.line()}` : `${this.line()}\n`);
  }

  done(): void {
    if (this.enabled) this.io.stderr.write(this.tty ? `\r${this.line()}\n` : `${this.line()}\n`);
  }

  private get tty(): boolean {
    return this.io.stderr.isTTY === true;
  }

  line(): string {
    const seconds = Math.max((this.now() - this.started) / 1000, 0.001);
    const rate = Math.round(this.records / seconds);
    return `${this.label}: ${counted(this.records, 'record')}, ${counted(this.pages, 'page')}, ${rate} records/s`;
  }

  get totals(): { records: number; pages: number } {
    return { records: this.records, pages: this.pages };
  }
}
