import { Logger } from '@nestjs/common';
import ZongJi, { type AnyBinlogEvent } from '@vlasky/zongji';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { randomBytes } from 'node:crypto';
import type { Source } from '../../catalogue/source';
import {
  changeLookupQuery,
  LOOKUP_CHUNK,
  visibleRowsQuery,
} from '../../wall/sql/change-lookups.sql';
import { ANY_SHOP, type DirtyMark, dirtyOf, type RowChange, shopKey } from './dirty-days';
import type { DirtyMarks } from './dirty-marks';

/** The service's own table a reader writes its watermarks to (migration 1765000000000). */
export const WATERMARKS = 'api_change_watermarks';

/** A position in the log, in the epoch of trust it was read in (a break starts a new epoch). */
export interface ChangePoint {
  epoch: string;
  position: number;
  /** When it was taken (epoch seconds): a stamp older than `recheckSeconds` is not trusted. */
  at: number;
}

/** Why the follower lost track: each cause makes every date dirty (docs/operations.md). */
export const BREAK_CAUSES = [
  'disconnected',
  'purged',
  'ddl',
  'statement',
  'server',
  'images',
  'xa',
  'marks',
  'lookup',
  'unreadable',
] as const;
export type BreakCause = (typeof BREAK_CAUSES)[number];

export type FollowerState = 'connecting' | 'following' | 'broken';

/** What operators see (readiness, metrics): `catching-up` is following, over a second behind. */
export interface FollowerStatus {
  state: FollowerState | 'catching-up';
  /** Why it is broken or connecting; absent while following. */
  reason?: string;
  /** The last watermark's commit-to-read time: how far behind the primary the reader is. */
  secondsBehind: number;
}

/**
 * A watermark of another instance, read and marked by this reader: every transaction before
 * `position` is marked in `epoch`, whose marks' writes counted `writes` then.
 */
export interface SeenWatermark {
  epoch: string;
  position: number;
  writes: number;
}

/** A watermark read back later than this (ms) is a reader catching up. */
const CATCHING_UP_MS = 1000;

export interface FollowerOptions {
  /** The account's connection (BINLOG_DATABASE_URL), also the look-ups' and watermarks'. */
  pool: Pool;
  /** What zongji connects with: the same account, dates as text. */
  connection: Record<string, unknown>;
  database: string;
  serverId: number;
  /** The bound of the barrier's wait (BINLOG_WAIT_MS). */
  waitMs: number;
  /**
   * How long a stamp is trusted (BINLOG_RECHECK_SECONDS): past it, its date is checked by its
   * fingerprint and stamped again, which bounds how long an edit the log never carries (made
   * with sql_log_bin = 0) can hide behind a cached checksum.
   */
  recheckSeconds: number;
  /** The digests' sources: what the follower watches, and the declarations its marks follow. */
  sources: readonly Source<unknown>[];
  marks: DirtyMarks;
  /**
   * Told the rows a transaction inserted into a source's table (the feeds' tables) once they are
   * visible: a waiting feed reads again at once (issue 57, item 4).
   */
  arrived?: (table: string) => void;
  /** Told each watermark of another instance, once read and marked (reader-relay.ts). */
  seen?: (token: string, watermark: SeenWatermark) => void;
}

/** How long the follower waits for an insert it read in the log to be visible (ms): then wakes anyway. */
const VISIBLE_WITHIN_MS = 200;

/** The bound of each statement of the follower's own (settings, look-ups, watermarks). */
const QUERY_TIMEOUT_MS = 5000;

/** Errors after which the reader resumes from its last transaction; any other is a break. */
const CONNECTION_ERRORS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CONNECTION_KILLED',
  'ER_SERVER_SHUTDOWN',
]);
/** 1236: the log is purged past the position (or it is unknown); 1945, 1955: MariaDB's GTID errors. */
const LOST_POSITION = new Set([1236, 1945, 1955]);

/** The events the follower reads; rows only of the watched tables (zongji skips the others undecoded). */
const EVENTS = [
  'tablemap',
  'writerows',
  'updaterows',
  'deleterows',
  'xid',
  'query',
  'mariadbgtid',
  'gtid',
  'xaprepare',
  'heartbeat',
  'rotate',
];

/** A binary log's file and offset as one number: the file's sequence number, then the offset. */
export function positionOf(file: string | undefined, offset: number): number {
  const sequence = Number(/(\d+)$/.exec(file ?? '')?.[1] ?? 0);
  return sequence * 2 ** 32 + offset;
}

const newEpoch = () => randomBytes(8).toString('hex');

/**
 * Follows the back office's binary log (issue 57) with one replication connection
 * (@vlasky/zongji, `server_id` BINLOG_SERVER_ID): the row events of the digests' tables, turned
 * into dirty marks (dirty-days.ts) kept by `marks`, one transaction at a time, in log order.
 *
 * Trust: `point()` commits a watermark row (a random token) to WATERMARKS and waits, at most
 * `waitMs`, for the follower to read it: every transaction committed before it is then read and
 * marked (the barrier), and a value read after it is stamped with its position (the log can
 * reach the reader before the commit is visible; the watermark's own commit cannot be behind
 * the read). A stamped value holds while no mark of its date is past its stamp, in the same
 * epoch. Every break (below) starts a new epoch: every stamp before it is untrusted, and the
 * service answers by fingerprints until values are stamped again.
 *
 * Breaks: the log purged past the position (1236), a disconnect it cannot resume from, a
 * statement (DDL, TRUNCATE, a statement-format DML) naming a watched table, a GTID of another
 * server in a domain, an XA transaction, an image without the columns the rules read, a mark
 * not written. Nothing of an unwatched table is decoded, kept or logged, and a statement's text
 * never is either.
 */
export class BinlogFollower {
  private readonly logger = new Logger('BinlogFollower');
  private epoch = newEpoch();
  private zongji: ZongJi | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private retries = 0;
  /** The GTID position after the last transaction handed to the chain: where a reconnect resumes. */
  private resumeFrom: string | undefined;
  private changes: RowChange[] = [];
  private tokens: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly waiters = new Map<string, (position: number | null) => void>();
  /** The server of each GTID domain seen, and MySQL's source UUID: another is a failover. */
  private readonly servers = new Map<string, string>();
  private readonly watched: string[];
  /** The sources' own tables: an insert into one is an arrival for its feed. */
  private readonly feeds: Set<string>;
  private probeSentAt = 0;
  /** The GTID position after the last transaction whose marks are written: what `save` saves. */
  private processed: string | undefined;
  private savedAt = 0;
  state: FollowerState = 'connecting';
  /** Why it is broken or connecting; '' while following. */
  reason = 'starting';
  lastEventAt = 0;
  /** Row events read of the watched tables since start. */
  rows = 0;
  /** The last watermark's commit-to-read time, ms: how far behind the primary the reader is. */
  lagMs = 0;
  readonly breaks = new Map<BreakCause, number>();

  constructor(private readonly options: FollowerOptions) {
    const tables = options.sources.flatMap((s) => [
      s.table,
      ...s.attached.map((a) => a.table),
      ...Object.values(s.derived).flatMap((c) =>
        c.derivation?.kind === 'lookup' ? [c.derivation.table] : [],
      ),
    ]);
    this.watched = [...new Set(tables)];
    this.feeds = new Set(options.sources.map((s) => s.table));
  }

  /**
   * Starts following: from the position the deployment's reader saved, in its epoch, when the
   * marks are in Redis and one was saved; else from the log's end, in a new epoch (a restart
   * without a saved position: every cached date is checked by its fingerprint once). Again after
   * `stop` when this instance takes the reader's lease back.
   */
  async start(): Promise<void> {
    this.stopped = false;
    this.state = 'connecting';
    this.reason = 'starting';
    this.retries = 0;
    this.servers.clear();
    const saved = await this.options.marks.saved();
    this.resumeFrom = this.processed = saved?.gtid;
    if (saved) {
      this.epoch = saved.epoch;
      this.logger.log(`Resuming the binary log at ${saved.gtid}`);
    } else {
      this.epoch = newEpoch();
      this.options.marks.forget(this.epoch);
    }
    this.connect();
    this.watchdog = setInterval(() => this.watch(), 1000);
    this.watchdog.unref();
  }

  private get reader(): string {
    return `server-${this.options.serverId}`;
  }

  /** Stops reading; once what was read is marked, saves the position (a successor resumes there). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.state = 'connecting';
    this.reason = 'stopped';
    if (this.retry) clearTimeout(this.retry);
    if (this.watchdog) clearInterval(this.watchdog);
    this.zongji?.stop();
    this.zongji = null;
    for (const resolve of this.waiters.values()) resolve(null);
    await this.chain;
    await this.save(true);
  }

  /**
   * Saves where the reader stands (the last transaction whose marks are written), at most once a
   * second, and at stop: a restart resumes there, in the same epoch.
   */
  private async save(now = false): Promise<void> {
    if (this.processed === undefined || (!now && Date.now() - this.savedAt < 1000)) return;
    this.savedAt = Date.now();
    const { marks } = this.options;
    await marks
      .save({ epoch: this.epoch, gtid: this.processed, writes: marks.writes })
      .catch(() => undefined);
  }

  status(): FollowerStatus {
    const secondsBehind = this.lagMs / 1000;
    if (this.state !== 'following')
      return { state: this.state, reason: this.reason, secondsBehind };
    return { state: this.lagMs > CATCHING_UP_MS ? 'catching-up' : 'following', secondsBehind };
  }

  /**
   * The barrier: a watermark committed now, once the follower has read and marked it (at most
   * `waitMs`); null when the log cannot answer (not following, behind past the wait, broken).
   */
  async point(): Promise<ChangePoint | null> {
    if (this.state !== 'following') return null;
    const epoch = this.epoch;
    const token = randomBytes(12).toString('hex');
    const sentAt = Date.now();
    const seen = new Promise<number | null>((resolve) => this.waiters.set(token, resolve));
    const timer = setTimeout(() => this.waiters.get(token)?.(null), this.options.waitMs);
    // Not awaited on its own: a write that hangs is bounded by the same wait.
    this.watermark(token).catch((error: unknown) => {
      this.logger.warn(`Watermark not written: ${String(error)}`);
      this.waiters.get(token)?.(null);
    });
    const position = await seen;
    clearTimeout(timer);
    this.waiters.delete(token);
    // Not read within the wait: at least that far behind.
    this.lagMs = Date.now() - sentAt;
    if (position === null || epoch !== this.epoch || this.state !== 'following') return null;
    return { epoch, position, at: Math.floor(Date.now() / 1000) };
  }

  /**
   * For each date of `shop`'s entries of `table`: true when its stamp is of `now`'s epoch, younger
   * than `recheckSeconds`, and no mark of the date is past it (read after the barrier `now`);
   * false when it may have changed or the log cannot tell. `writes`: `now` was passed through
   * the deployment's reader, whose marks had counted that many writes (reader-relay.ts); without
   * it, `now` is this follower's own, in its current epoch.
   */
  async unchanged(
    now: ChangePoint,
    table: string,
    shop: string,
    dates: readonly string[],
    since: ReadonlyArray<ChangePoint | null>,
    writes?: number,
  ): Promise<boolean[]> {
    const none = dates.map(() => false);
    const key = shopKey(shop);
    const moved = () => writes === undefined && now.epoch !== this.epoch;
    if (key === null || key === ANY_SHOP || moved()) return none;
    const latest = await this.options.marks.latest(now.epoch, table, key, dates, writes);
    if (latest === null || moved()) return none;
    return since.map(
      (stamp, i) =>
        stamp !== null &&
        stamp.epoch === now.epoch &&
        now.at - stamp.at < this.options.recheckSeconds &&
        stamp.position <= now.position &&
        latest[i] < stamp.position,
    );
  }

  /**
   * Commits a watermark row (`token`) to WATERMARKS, under this instance's name: the barrier's
   * write, here and on an instance that is not the reader (reader-relay.ts).
   */
  async watermark(token: string): Promise<void> {
    await this.options.pool.query({
      sql: `INSERT INTO ${WATERMARKS} (reader, token) VALUES (?, ?) ON DUPLICATE KEY UPDATE token = ?`,
      values: [this.reader, token, token],
      timeout: QUERY_TIMEOUT_MS,
    });
  }

  /** Checks the server's settings, then starts a replication connection (resuming if it can). */
  private connect(): void {
    if (this.stopped) return;
    void this.settings().then(
      (problem) => {
        if (this.stopped) return;
        if (problem) {
          this.state = 'broken';
          if (this.reason !== problem) this.logger.error(`Binary log not followed: ${problem}`);
          this.reason = problem;
          this.resumeFrom = undefined;
          return this.later(30_000);
        }
        this.open();
      },
      (error: unknown) => {
        this.state = 'connecting';
        this.reason = `cannot reach the database: ${String(error)}`;
        this.later();
      },
    );
  }

  /** What the server must be to be followed: null, or the problem. */
  private async settings(): Promise<string | null> {
    const [rows] = await this.options.pool.query<RowDataPacket[]>({
      sql:
        'SELECT @@GLOBAL.log_bin AS log_bin, @@GLOBAL.binlog_format AS format, ' +
        '@@GLOBAL.binlog_row_image AS image',
      timeout: QUERY_TIMEOUT_MS,
    });
    const { log_bin: logBin, format, image } = rows[0];
    if (Number(logBin) !== 1) return 'log_bin is off';
    if (String(format).toUpperCase() !== 'ROW')
      return `binlog_format is ${String(format)}, not ROW`;
    if (String(image).toUpperCase() !== 'FULL')
      return `binlog_row_image is ${String(image)}, not FULL`;
    return null;
  }

  private later(ms = Math.min(250 * 2 ** this.retries, 5000)): void {
    this.retries++;
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), ms);
    this.retry.unref();
  }

  private open(): void {
    const zongji = new ZongJi({ ...this.options.connection, dateStrings: true });
    this.zongji = zongji;
    zongji.on('binlog', (event: AnyBinlogEvent) => {
      if (zongji === this.zongji) this.read(zongji, event);
    });
    zongji.on('error', (error: Error) => {
      if (zongji === this.zongji) this.failed(zongji, error);
    });
    zongji.on('ready', () => {
      if (zongji !== this.zongji) return;
      this.retries = 0;
      this.lastEventAt = Date.now();
      this.state = 'following';
      this.reason = '';
      this.logger.log(`Following the binary log as server_id ${this.options.serverId}`);
    });
    this.changes = [];
    this.tokens = [];
    zongji.start({
      serverId: this.options.serverId,
      ...(this.resumeFrom !== undefined ? { gtidSet: this.resumeFrom } : { startAtEnd: true }),
      includeEvents: EVENTS,
      includeSchema: { [this.options.database]: [...this.watched, WATERMARKS] },
    });
  }

  private failed(zongji: ZongJi, thrown: Error & { context?: unknown }): void {
    // A server's refusal can reach us wrapped by an EventEmitter (ERR_UNHANDLED_ERROR): its
    // `context` is the driver's error, with the server's errno.
    const error = (thrown.context instanceof Error ? thrown.context : thrown) as Error & {
      code?: string;
      errno?: number;
    };
    zongji.stop();
    this.zongji = null;
    this.state = 'connecting';
    const connection = CONNECTION_ERRORS.has(error.code ?? '');
    if (LOST_POSITION.has(error.errno ?? 0)) {
      this.break('purged', 'the log no longer holds the position (error 1236)');
      this.resumeFrom = undefined;
    } else if (!connection || this.resumeFrom === undefined) {
      this.break(connection ? 'disconnected' : 'unreadable', error.message);
      this.resumeFrom = undefined;
    } else {
      this.reason = `reconnecting: ${error.message}`;
      this.logger.warn(`Binary log connection lost (${error.message}): resuming`);
    }
    for (const resolve of this.waiters.values()) resolve(null);
    this.later();
  }

  /** Every second: a connection silent for 5 s gets a watermark; one still silent 5 s on reconnects. */
  private watch(): void {
    if (this.state !== 'following' || !this.zongji) return;
    const now = Date.now();
    if (this.probeSentAt > this.lastEventAt && now - this.probeSentAt > 5000) {
      this.logger.warn('Binary log silent past a watermark: reconnecting');
      this.zongji.stop();
      this.zongji = null;
      this.state = 'connecting';
      this.reason = 'reconnecting: silent';
      this.probeSentAt = 0;
      this.later(0);
    } else if (now - this.lastEventAt > 5000 && this.probeSentAt <= this.lastEventAt) {
      // A watermark of its own: keeps secondsBehind current while no digest asks.
      this.probeSentAt = now;
      void this.point();
    }
  }

  /** One event, in log order: rows into the transaction, which goes to the chain at its commit. */
  private read(zongji: ZongJi, event: AnyBinlogEvent): void {
    this.lastEventAt = Date.now();
    switch (event.getEventName()) {
      case 'writerows':
      case 'updaterows':
      case 'deleterows':
        return this.rowsOf(event as Extract<AnyBinlogEvent, { rows: unknown[] }>);
      case 'xid':
        return this.commit(zongji, event.nextPosition);
      case 'query':
        return this.statement(zongji, event as Extract<AnyBinlogEvent, { query: string }>);
      case 'mariadbgtid': {
        const gtid = event as Extract<AnyBinlogEvent, { domainId: number }>;
        this.changes = [];
        this.tokens = [];
        return this.server(`domain ${gtid.domainId}`, String(gtid.serverId));
      }
      case 'gtid':
        return this.server('source', (event as Extract<AnyBinlogEvent, { sid: string }>).sid);
      case 'xaprepare':
        return this.then(() => this.break('xa', 'an XA transaction: its rows commit later'));
    }
  }

  private rowsOf(event: Extract<AnyBinlogEvent, { rows: unknown[] }>): void {
    const table = event.tableMap[event.tableId]?.tableName;
    if (!table) return;
    const update = event.getEventName() === 'updaterows';
    const insert = event.getEventName() === 'writerows';
    for (const row of event.rows as Array<Record<string, unknown>>) {
      const before = update ? (row.before as Record<string, unknown>) : insert ? null : row;
      const after = update ? (row.after as Record<string, unknown>) : insert ? row : null;
      if (table === WATERMARKS) {
        if (after && typeof after.token === 'string') this.tokens.push(after.token);
        continue;
      }
      this.rows++;
      this.changes.push({ table, before, after });
    }
  }

  /** A statement: BEGIN, COMMIT, or one naming a watched table (a DDL, a statement-format DML): a break. */
  private statement(zongji: ZongJi, event: { query: string; nextPosition: number }): void {
    const text = event.query.trim();
    if (/^(BEGIN|XA START)\b/i.test(text)) {
      this.changes = [];
      this.tokens = [];
      return;
    }
    // A ROLLBACK in the log ends a transaction that changed a table it could not roll back:
    // its rows are marked as a commit's (a mark too many costs a read, never an answer).
    if (/^(COMMIT|ROLLBACK)$/i.test(text)) return this.commit(zongji, event.nextPosition);
    const named = this.watched.find((table) => new RegExp(`\\b${table}\\b`, 'i').test(text));
    if (named) {
      const ddl = /^\s*(ALTER|TRUNCATE|DROP|RENAME|CREATE|OPTIMIZE|REPAIR)\b/i.test(text);
      // The statement's text is never logged: it may carry any table's values.
      this.then(() =>
        this.break(
          ddl ? 'ddl' : 'statement',
          `a ${ddl ? 'DDL' : 'statement-format'} event on ${named}`,
        ),
      );
    }
  }

  private server(domain: string, server: string): void {
    const known = this.servers.get(domain);
    this.servers.set(domain, server);
    if (known !== undefined && known !== server) {
      this.then(() => this.break('server', `the GTIDs of ${domain} come from another server`));
    }
  }

  /**
   * A transaction's end: its rows are marked, then its watermarks resolve, in log order; another
   * instance's only when no break came between the read and the marks (as `point` checks).
   */
  private commit(zongji: ZongJi, offset: number): void {
    const position = positionOf(zongji.options.filename, offset);
    const [changes, tokens, epoch] = [this.changes, this.tokens, this.epoch];
    this.changes = [];
    this.tokens = [];
    const gtid = zongji.gtidSet;
    this.resumeFrom = gtid ?? this.resumeFrom;
    this.then(async () => {
      if (changes.length > 0) await this.mark(changes, position);
      for (const token of tokens) {
        const waiter = this.waiters.get(token);
        if (waiter) waiter(position);
        else if (epoch === this.epoch) {
          this.options.seen?.(token, { epoch, position, writes: this.options.marks.writes });
        }
      }
      this.processed = gtid ?? this.processed;
      await this.save();
    });
    this.announce(changes);
  }

  /**
   * The inserts of a transaction into the feeds' tables, announced once a committed read shows
   * them (the log can reach the reader before the commit is visible: a read woken earlier would
   * see an insert in flight and back off), or after VISIBLE_WITHIN_MS whatever it shows.
   */
  private announce(changes: readonly RowChange[]): void {
    const { arrived } = this.options;
    if (!arrived) return;
    const inserted = new Map<string, unknown[]>();
    for (const change of changes) {
      if (change.before !== null || !change.after || !this.feeds.has(change.table)) continue;
      let ids = inserted.get(change.table);
      if (!ids) inserted.set(change.table, (ids = []));
      ids.push(change.after.id);
    }
    for (const [table, ids] of inserted) {
      void this.visible(table, ids).then(() => arrived(table));
    }
  }

  private async visible(table: string, ids: readonly unknown[]): Promise<void> {
    const until = Date.now() + VISIBLE_WITHIN_MS;
    const { sql, params } = visibleRowsQuery(table, ids.slice(0, LOOKUP_CHUNK));
    while (Date.now() < until) {
      try {
        const [rows] = await this.options.pool.query<RowDataPacket[]>({
          sql,
          values: params,
          timeout: QUERY_TIMEOUT_MS,
        });
        if (Number(rows[0]?.n) >= Math.min(ids.length, LOOKUP_CHUNK)) return;
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  private async mark(changes: readonly RowChange[], position: number): Promise<void> {
    const dirt = dirtyOf(this.options.sources, changes);
    if (dirt.broken) return this.break('images', dirt.broken);
    const marks: DirtyMark[] = [...dirt.marks];
    try {
      for (const lookup of dirt.lookups) {
        for (let i = 0; i < lookup.values.length; i += LOOKUP_CHUNK) {
          const { sql, params } = changeLookupQuery(
            lookup,
            lookup.values.slice(i, i + LOOKUP_CHUNK),
          );
          const [rows] = await this.options.pool.query<RowDataPacket[]>({
            sql,
            values: params,
            timeout: QUERY_TIMEOUT_MS,
          });
          for (const row of rows) {
            const shop = lookup.mark?.shop ?? shopKey(row.shop_code) ?? ANY_SHOP;
            marks.push({ table: lookup.mark?.table ?? lookup.table, shop, date: String(row.day) });
          }
        }
      }
    } catch (error) {
      return this.break('lookup', `a look-up failed: ${String(error)}`);
    }
    try {
      await this.options.marks.write(
        this.epoch,
        marks.map((mark) => ({ mark, position })),
      );
    } catch (error) {
      this.break('marks', `dirty marks not kept: ${String(error)}`);
    }
  }

  /** Runs `work` after everything read before it, in log order. */
  private then(work: () => void | Promise<void>): void {
    this.chain = this.chain.then(work).catch((error: unknown) => {
      this.break('marks', String(error));
    });
  }

  /** Every date dirty: a new epoch, in which no stamp yet exists. */
  private break(cause: BreakCause, why: string): void {
    this.epoch = newEpoch();
    this.options.marks.forget(this.epoch);
    this.savedAt = 0;
    this.breaks.set(cause, (this.breaks.get(cause) ?? 0) + 1);
    this.logger.warn(`Binary log break (${cause}): ${why}; every date is checked by fingerprints`);
    for (const resolve of this.waiters.values()) resolve(null);
  }
}
