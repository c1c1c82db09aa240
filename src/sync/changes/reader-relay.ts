import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { ChangePoint, FollowerStatus, SeenWatermark } from './binlog-follower';

/** How long a watermark the reader read stays in Redis for a waiter that missed its message. */
const SEEN_TTL_MS = 15_000;
/** How often a waiter also looks for its watermark's key (a message lost on the way). */
const POLL_MS = 250;

/** A barrier passed through the deployment's reader: its stamp, and the marks' writes then. */
export interface RelayedPoint {
  point: ChangePoint;
  writes: number;
}

type Message =
  | ({ kind: 'watermark'; token: string } & SeenWatermark)
  | { kind: 'arrival'; from: string; table: string }
  | { kind: 'released'; from: string };

function parse(text: string): Message | null {
  try {
    const message = JSON.parse(text) as Partial<Record<string, unknown>>;
    if (message.kind === 'watermark') {
      const { token, epoch, position, writes } = message;
      if (typeof token !== 'string' || typeof epoch !== 'string') return null;
      if (!Number.isSafeInteger(position) || !Number.isSafeInteger(writes)) return null;
      return message as Message;
    }
    if (typeof message.from !== 'string') return null;
    if (message.kind === 'released') return message as Message;
    return message.kind === 'arrival' && typeof message.table === 'string'
      ? (message as Message)
      : null;
  } catch {
    return null;
  }
}

/**
 * What the deployment's reader tells the other instances through Redis (issue 57, item 5), on one
 * channel (`<prefix>changes:events`; pub/sub is never the only copy of what must last):
 * - each watermark of another instance it has read and marked (also a key with a short TTL, for
 *   a waiter whose message was lost): their barrier (`point`) is passed through it;
 * - each table a committed transaction inserted into: their waiting feeds wake (a lost message
 *   costs the next poll);
 * - that it gave the lease up: another takes it at once;
 * - its state (`reader:status`, renewed with the lease): theirs in readiness and the metrics.
 * The dirty marks need no message: they are Redis keys every instance reads (dirty-marks.ts).
 */
export class ReaderRelay {
  private readonly pending = new Map<string, (seen: SeenWatermark | null) => void>();
  private readonly arrivals: Array<(table: string) => void> = [];
  private readonly releases: Array<() => void> = [];
  private readonly channel: string;
  /** The reader's state as last read (null: no reader, or Redis could not tell), and why. */
  private reader: { status: FollowerStatus | null; why: string } = {
    status: null,
    why: 'not read yet',
  };

  constructor(
    /** Commands, with the changes' key prefix. */
    private readonly redis: Redis,
    /** A connection of its own for the subscription (a subscribed connection sends nothing else). */
    private readonly subscriber: Redis,
    /** REDIS_KEY_PREFIX: channels are not prefixed by ioredis. */
    prefix: string,
    /** This instance's name: its own messages are not for it. */
    private readonly instance: string,
  ) {
    this.channel = `${prefix}changes:events`;
    subscriber.on('error', () => undefined);
    // On every (re)connection: a subscription made before a Redis outage may be gone.
    subscriber.on('ready', () => void subscriber.subscribe(this.channel).catch(() => undefined));
    subscriber.on('message', (_channel: string, text: string) => this.received(text));
  }

  async start(): Promise<void> {
    await this.subscriber.connect().catch(() => undefined);
  }

  stop(): void {
    for (const resolve of this.pending.values()) resolve(null);
    this.subscriber.disconnect();
  }

  // --- the reader's side ----------------------------------------------------------------------

  /** A watermark of another instance, read and marked (BinlogFollower's `seen`). */
  seen(token: string, watermark: SeenWatermark): void {
    const text = JSON.stringify({ kind: 'watermark', token, ...watermark });
    void this.redis
      .set(`watermark:${token}`, text, 'PX', SEEN_TTL_MS)
      .then(() => this.redis.publish(this.channel, text))
      .catch(() => undefined);
  }

  arrived(table: string): void {
    void this.publish({ kind: 'arrival', from: this.instance, table });
  }

  released(): Promise<void> {
    return this.publish({ kind: 'released', from: this.instance });
  }

  /** The reader's state, kept as long as its lease. */
  publishStatus(status: FollowerStatus, ttlMs: number): void {
    void this.redis
      .set('reader:status', JSON.stringify(status), 'PX', ttlMs)
      .catch(() => undefined);
  }

  // --- the other instances' side --------------------------------------------------------------

  onArrival(listener: (table: string) => void): void {
    this.arrivals.push(listener);
  }

  onRelease(listener: () => void): void {
    this.releases.push(listener);
  }

  /** Reads the reader's state again (after each attempt at the lease that did not take it). */
  async refresh(): Promise<void> {
    try {
      const text = await this.redis.get('reader:status');
      const read = text ? (JSON.parse(text) as Partial<FollowerStatus>) : null;
      const status: FollowerStatus | null = read?.state
        ? {
            state: read.state,
            ...(read.reason ? { reason: String(read.reason) } : {}),
            secondsBehind: Number(read.secondsBehind) || 0,
          }
        : null;
      this.reader = { status, why: 'no instance is the reader (its lease is free)' };
    } catch (error) {
      this.reader = { status: null, why: `cannot reach Redis: ${String(error)}` };
    }
  }

  /** The deployment's reader's state as last read: null when there is none, with why. */
  readerStatus(): { status: FollowerStatus | null; why: string } {
    return this.reader;
  }

  /**
   * The barrier through the reader: `write` commits a watermark (a random token), then the
   * reader's word that it read and marked it, within `waitMs`; null past it, or when the write
   * or Redis fails (the caller falls back to the fingerprints).
   */
  async point(
    write: (token: string) => Promise<void>,
    waitMs: number,
  ): Promise<RelayedPoint | null> {
    const token = randomBytes(12).toString('hex');
    const seen = new Promise<SeenWatermark | null>((resolve) => this.pending.set(token, resolve));
    const settle = (watermark: SeenWatermark | null) => this.pending.get(token)?.(watermark);
    const timer = setTimeout(() => settle(null), waitMs);
    const poll = setInterval(() => {
      this.redis.get(`watermark:${token}`).then(
        (text) => {
          const message = text ? parse(text) : null;
          if (message?.kind === 'watermark') settle(message);
        },
        () => undefined,
      );
    }, POLL_MS);
    // Not awaited on its own: a write that hangs is bounded by the same wait.
    write(token).catch(() => settle(null));
    const watermark = await seen;
    clearTimeout(timer);
    clearInterval(poll);
    this.pending.delete(token);
    if (!watermark) return null;
    const { epoch, position, writes } = watermark;
    return { point: { epoch, position, at: Math.floor(Date.now() / 1000) }, writes };
  }

  private received(text: string): void {
    const message = parse(text);
    if (!message) return;
    if (message.kind === 'watermark') {
      this.pending.get(message.token)?.(message);
    } else if (message.from !== this.instance) {
      if (message.kind === 'arrival') for (const listener of this.arrivals) listener(message.table);
      else for (const listener of this.releases) listener();
    }
  }

  private async publish(message: Message): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify(message)).catch(() => undefined);
  }
}
