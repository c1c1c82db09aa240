import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { TEST_REDIS_URL } from './requirements';
import { startTestApp, TestApp } from './test-app';
import type { TestDatabase } from './test-database';

/** Deletes the keys under `prefix`, and only those (the machine's Redis is shared by specs). */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export interface InstancesSharingRedis {
  readonly redis: Redis;
  readonly prefix: string;
  readonly first: TestApp;
  readonly second: TestApp;
}

/**
 * Two instances of the service on one database and one Redis (TEST_REDIS_URL, under a key prefix
 * of their own, deleted afterwards), for the enclosing describe block: started in beforeAll,
 * closed in afterAll. Needs the `redis` requirement.
 */
export function instancesSharingRedis(
  ctx: { readonly db: Pick<TestDatabase, 'dataDir' | 'appDatabaseUrl'> },
  env: Record<string, string> = {},
): InstancesSharingRedis {
  const prefix = `pos-read-api-test:${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const apps: TestApp[] = [];
  beforeAll(async () => {
    await redis.connect();
    const shared = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, ...env };
    apps.push(await startTestApp(ctx.db, shared), await startTestApp(ctx.db, shared));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  const started = (index: number): TestApp => {
    const app = apps[index];
    if (!app) throw new Error('instances not started');
    return app;
  };
  return {
    redis,
    prefix,
    get first() {
      return started(0);
    },
    get second() {
      return started(1);
    },
  };
}
