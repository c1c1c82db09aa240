import Redis from 'ioredis';
import { databaseServerPid, processJiffies } from './machine';
import { busiestShop, saleToChange } from './sync-database';
import type { SyncInput } from './sync-waiters';

/**
 * Issue 45's targets on the busiest shop's first 92 days (`npm run bench -- --digests`, part of
 * --sync): the digest with its cache empty (cold), repeated with nothing changed, and repeated
 * after one sale of one day changed behind the service's back; the rows the server read for a cold
 * and a repeat digest (its global Rows_read, Innodb_rows_read on MySQL, the benchmark alone on the server). The
 * service keeps its checksums in Redis (BENCH_REDIS_URL), under a prefix of its own that the
 * scenario clears for every cold digest.
 */
export interface DigestCacheFigures {
  coldMs: number;
  repeatMs: number;
  oneDayMs: number;
  coldRowsRead: number;
  repeatRowsRead: number;
  /** CPU time (ms) of the service and of the database server, cold / repeated digest. */
  coldCpu: { service: number; database: number };
  repeatCpu: { service: number; database: number };
  sales: number;
}

export const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Deletes every key of BENCH_REDIS_URL that `pattern` matches (SCAN's MATCH). */
export async function forgetKeys(pattern: string): Promise<void> {
  const redis = new Redis(BENCH_REDIS_URL, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key of the service's digest cache (its REDIS_KEY_PREFIX + `digest:`). */
export const flushDigestCache = (prefix: string): Promise<void> => forgetKeys(`${prefix}digest:*`);

export async function measureDigestCache(
  input: SyncInput,
  redisPrefix: string,
): Promise<DigestCacheFigures> {
  const repeats = input.quick ? 1 : 3;
  const shop = await busiestShop(input.databaseUrl);
  const from = input.dataset.from.slice(0, 10);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + 92 * 86_400_000).toISOString().slice(0, 10);
  const path = `/api/v1.0/sales/digest?ShopCode=${shop}&From=${from}&To=${to}`;
  const sale = await saleToChange(input.databaseUrl, shop, from, to);
  const rowsRead = () => sale.rowsRead();
  const dbPid = databaseServerPid();
  // Jiffies are 10 ms: the CPU of one digest, as the kernel counted it.
  const cpu = () => ({
    service: processJiffies(input.service.pid) * 10,
    database: dbPid === null ? NaN : processJiffies(dbPid) * 10,
  });
  const spent = (from: { service: number; database: number }) => {
    const now = cpu();
    return { service: now.service - from.service, database: now.database - from.database };
  };
  const digest = async () => {
    const started = process.hrtime.bigint();
    const response = await fetch(input.service.baseUrl + path, {
      headers: { authorization: `Bearer ${input.token}`, 'accept-encoding': 'identity' },
    });
    const body = (await response.json()) as { data: Array<{ count: number; checksum: string }> };
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, days: body.data };
  };
  try {
    const [cold, repeat, oneDay] = [[], [], []] as number[][];
    let [coldRowsRead, repeatRowsRead, sales] = [0, 0, 0];
    let [coldCpu, repeatCpu] = [cpu(), cpu()];
    await flushDigestCache(redisPrefix);
    await digest(); // the service warm, its cache not: flushed below
    for (let i = 0; i < repeats; i++) {
      await flushDigestCache(redisPrefix);
      const before = await rowsRead();
      const coldFrom = cpu();
      const first = await digest();
      coldCpu = spent(coldFrom);
      coldRowsRead = (await rowsRead()) - before;
      cold.push(first.ms);
      sales = first.days.reduce((sum, day) => sum + day.count, 0);
      const beforeRepeat = await rowsRead();
      const repeatFrom = cpu();
      const again = await digest();
      repeatCpu = spent(repeatFrom);
      repeatRowsRead = (await rowsRead()) - beforeRepeat;
      if (JSON.stringify(again.days) !== JSON.stringify(first.days)) {
        throw new Error('a repeat digest answered otherwise than the cold one');
      }
      repeat.push(again.ms);
      await sale.change(`BENCH-${i}`);
      const changed = await digest();
      const moved = changed.days.filter((d, k) => d.checksum !== first.days[k].checksum).length;
      if (moved !== 1) throw new Error(`one sale changed, ${moved} days' checksums moved`);
      oneDay.push(changed.ms);
      await sale.restore();
    }
    return {
      coldMs: median(cold),
      repeatMs: median(repeat),
      oneDayMs: median(oneDay),
      coldRowsRead,
      repeatRowsRead,
      coldCpu,
      repeatCpu,
      sales,
    };
  } finally {
    try {
      await sale.restore();
    } finally {
      await sale.end();
    }
  }
}
