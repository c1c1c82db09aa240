import type Redis from 'ioredis';
import { ANY_SHOP, type DirtyMark } from './dirty-days';

/** A mark and the log position of the transaction that made it. */
export interface PlacedMark {
  mark: DirtyMark;
  position: number;
}

/**
 * Where the change source keeps its dirty marks: for each (table, shop, date) the log position
 * of the last transaction that moved it, and for each (table, shop) the "every date from D on"
 * marks. All under an epoch: a break starts a new one, and a mark of another epoch is never read.
 *
 * `latest` answers, per date, the highest position of a mark over it (the shop's own and
 * ANY_SHOP's), -1 for none; null when it cannot tell (Redis unreachable, or it lost a write):
 * the caller then trusts nothing of the log.
 */
export interface DirtyMarks {
  write(epoch: string, marks: readonly PlacedMark[]): Promise<void>;
  latest(
    epoch: string,
    table: string,
    shop: string,
    dates: readonly string[],
    writes?: number,
  ): Promise<number[] | null>;
  /** Forgets every mark of epochs other than `epoch` (this process's own). */
  forget(epoch: string): void;
  /**
   * The position the deployment's reader saved, and its marks then; none without Redis (the
   * marks die with the process) or when none was saved. A reader that takes it up (the same
   * instance restarted, or another that took the lease over) continues its epoch: the cached
   * stamps of that epoch stay trusted.
   */
  saved(): Promise<SavedPosition | null>;
  save(position: SavedPosition): Promise<void>;
  /** The writes counted in this epoch (what a saved position carries). */
  readonly writes: number;
}

/** Where a reader stood: its epoch, the GTID position every mark before which is written. */
export interface SavedPosition {
  epoch: string;
  gtid: string;
  /** The marks' writes counted then (RedisMarks' check of lost writes). */
  writes: number;
}

const FROM_ALL = '';

/** The deployment's reader's saved position: one for every instance that may take the lease. */
const SAVED_KEY = 'reader:saved';

/** The highest position over each date from a date mark list and a from-marks map. */
function fold(
  dates: readonly string[],
  own: ReadonlyArray<number | null>,
  from: ReadonlyMap<string, number>,
): number[] {
  return dates.map((date, i) => {
    let top = own[i] ?? -1;
    for (const [start, position] of from) {
      if ((start === FROM_ALL || start <= date) && position > top) top = position;
    }
    return top;
  });
}

/** Marks in this instance's memory: without Redis, each instance reads the log for itself. */
export class MemoryMarks implements DirtyMarks {
  private epoch = '';
  private readonly dates = new Map<string, number>();
  private readonly from = new Map<string, Map<string, number>>();

  constructor(private readonly maxMarks: number) {}

  write(epoch: string, marks: readonly PlacedMark[]): Promise<void> {
    this.forget(epoch);
    for (const { mark, position } of marks) {
      if ('date' in mark) {
        this.dates.set(`${mark.table}|${mark.shop}|${mark.date}`, position);
      } else {
        const key = `${mark.table}|${mark.shop}`;
        let of = this.from.get(key);
        if (!of) this.from.set(key, (of = new Map<string, number>()));
        of.set(mark.from ?? FROM_ALL, position);
      }
    }
    if (this.dates.size > this.maxMarks) {
      // Too many dates to hold: the caller breaks (every date dirty) and starts afresh.
      return Promise.reject(new Error(`more than ${this.maxMarks} dirty dates held`));
    }
    return Promise.resolve();
  }

  latest(epoch: string, table: string, shop: string, dates: readonly string[]): Promise<number[]> {
    if (epoch !== this.epoch) return Promise.resolve(dates.map(() => -1));
    const shops = [shop, ANY_SHOP];
    const own = dates.map((date) =>
      Math.max(-1, ...shops.map((s) => this.dates.get(`${table}|${s}|${date}`) ?? -1)),
    );
    const from = new Map<string, number>();
    for (const s of shops) {
      for (const [start, position] of this.from.get(`${table}|${s}`) ?? []) {
        from.set(start, Math.max(position, from.get(start) ?? -1));
      }
    }
    return Promise.resolve(fold(dates, own, from));
  }

  forget(epoch: string): void {
    if (epoch === this.epoch) return;
    this.epoch = epoch;
    this.dates.clear();
    this.from.clear();
  }

  readonly writes = 0;

  saved(): Promise<null> {
    return Promise.resolve(null);
  }

  save(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Writes a batch of marks, each key only raised (a position never goes back), and counts the
 * write. KEYS: the date keys, the from-mark hashes, the counter; ARGV: the TTL, the number of
 * date keys, a position per date key, then a field and a position per hash.
 */
const RAISE_SCRIPT = `
local dates = tonumber(ARGV[2])
local a = 3
for i = 1, #KEYS - 1 do
  if i <= dates then
    local old = tonumber(redis.call('GET', KEYS[i]) or '-1')
    if tonumber(ARGV[a]) > old then
      redis.call('SET', KEYS[i], ARGV[a], 'EX', ARGV[1])
    else
      redis.call('EXPIRE', KEYS[i], ARGV[1])
    end
    a = a + 1
  else
    local old = tonumber(redis.call('HGET', KEYS[i], ARGV[a]) or '-1')
    if tonumber(ARGV[a + 1]) > old then redis.call('HSET', KEYS[i], ARGV[a], ARGV[a + 1]) end
    redis.call('EXPIRE', KEYS[i], ARGV[1])
    a = a + 2
  end
end
redis.call('INCR', KEYS[#KEYS])
redis.call('EXPIRE', KEYS[#KEYS], ARGV[1])
return 1
`;

interface WithRaise {
  raiseMarks(keyCount: number, ...args: Array<string | number>): Promise<number>;
}

/**
 * Marks in Redis keys (never only in pub/sub messages, which Redis drops for a subscriber that is
 * away): `<epoch>:d:<table>:<shop>:<date>` holds a date's position, the hash
 * `<epoch>:f:<table>:<shop>` the from-marks (field: the first date, '' for all), each with a TTL
 * past the cache's own (an entry older than it is gone too). A mark is written once its
 * transaction is read, before the reader counts the transaction applied, and a key is only ever
 * raised (one script): a replay after a resume or a takeover, or a reader that lost its lease
 * and has not stopped yet, writes the same transactions again and can never lower a position a
 * barrier already relies on.
 *
 * Each write also increments `<epoch>:writes`, and a read compares it with the count it knows
 * (this process's own, or the one the reader published with a watermark): a Redis that lost
 * writes (a restart without persistence, a failover to a replica that lagged) answers null,
 * never an older mark.
 */
export class RedisMarks implements DirtyMarks {
  private written = 0;
  private epoch = '';
  private readonly redis: Redis & WithRaise;

  constructor(
    redis: Redis,
    private readonly ttlSeconds: number,
  ) {
    // ioredis sends EVALSHA, and the script itself when Redis does not have it yet.
    redis.defineCommand('raiseMarks', { lua: RAISE_SCRIPT });
    this.redis = redis as Redis & WithRaise;
  }

  async write(epoch: string, marks: readonly PlacedMark[]): Promise<void> {
    this.forget(epoch);
    if (marks.length === 0) return;
    const dates: Array<[string, number]> = [];
    const from: Array<[string, string, number]> = [];
    for (const { mark, position } of marks) {
      if ('date' in mark) {
        dates.push([`${epoch}:d:${mark.table}:${mark.shop}:${mark.date}`, position]);
      } else {
        from.push([`${epoch}:f:${mark.table}:${mark.shop}`, mark.from ?? FROM_ALL, position]);
      }
    }
    const keys = [...dates.map(([key]) => key), ...from.map(([key]) => key), `${epoch}:writes`];
    await this.redis.raiseMarks(
      keys.length,
      ...keys,
      this.ttlSeconds,
      dates.length,
      ...dates.map(([, position]) => position),
      ...from.flatMap(([, field, position]) => [field, position]),
    );
    this.written++;
  }

  /**
   * Without `writes`, for this process's own epoch (another epoch has no marks of its own);
   * with it, for any epoch, checked against that count (a watermark the reader published).
   */
  async latest(
    epoch: string,
    table: string,
    shop: string,
    dates: readonly string[],
    writes?: number,
  ): Promise<number[] | null> {
    if (writes === undefined && epoch !== this.epoch) return dates.map(() => -1);
    const floor = writes ?? this.written;
    const shops = [shop, ANY_SHOP];
    try {
      const batch = this.redis.pipeline();
      batch.get(`${epoch}:writes`);
      batch.mget(...shops.flatMap((s) => dates.map((d) => `${epoch}:d:${table}:${s}:${d}`)));
      for (const s of shops) batch.hgetall(`${epoch}:f:${table}:${s}`);
      const results = await batch.exec();
      if (!results || results.some(([error]) => error)) return null;
      const [counted, values, ...hashes] = results.map(([, value]) => value);
      if (Number(counted ?? 0) < floor) return null;
      const flat = (values as Array<string | null>).map((v) => (v === null ? -1 : Number(v)));
      const own = dates.map((_, i) => Math.max(flat[i], flat[dates.length + i]));
      const from = new Map<string, number>();
      for (const hash of hashes as Array<Record<string, string>>) {
        for (const [start, position] of Object.entries(hash)) {
          from.set(start, Math.max(Number(position), from.get(start) ?? -1));
        }
      }
      return fold(dates, own, from);
    } catch {
      return null;
    }
  }

  forget(epoch: string): void {
    if (epoch === this.epoch) return;
    // The old epoch's keys expire with their TTL; nothing reads them again.
    this.epoch = epoch;
    this.written = 0;
  }

  async saved(): Promise<SavedPosition | null> {
    try {
      const text = await this.redis.get(SAVED_KEY);
      const saved = text ? (JSON.parse(text) as Partial<SavedPosition>) : null;
      if (!saved || typeof saved.epoch !== 'string' || typeof saved.gtid !== 'string') return null;
      this.epoch = saved.epoch;
      this.written = Number(saved.writes) || 0;
      return { epoch: saved.epoch, gtid: saved.gtid, writes: this.written };
    } catch {
      return null;
    }
  }

  async save(position: SavedPosition): Promise<void> {
    await this.redis.set(SAVED_KEY, JSON.stringify(position), 'EX', this.ttlSeconds);
  }

  /** The writes counted in this epoch (what a saved position carries). */
  get writes(): number {
    return this.written;
  }
}
