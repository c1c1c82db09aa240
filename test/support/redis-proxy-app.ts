import { TcpProxy } from '../operations/support/tcp-proxy';
import { TEST_REDIS_URL } from './requirements';
import { startTestApp, TestApp } from './test-app';
import type { TestDatabase } from './test-database';

export interface AppBehindRedisProxy {
  readonly proxy: TcpProxy;
  readonly api: TestApp;
}

/**
 * One instance of the service whose Redis (TEST_REDIS_URL, under a key prefix of its own) is
 * reached through a TcpProxy the spec cuts or freezes, for the enclosing describe block: started
 * in beforeAll, closed in afterAll. Needs the `redis` requirement.
 */
export function appBehindRedisProxy(
  ctx: { readonly db: Pick<TestDatabase, 'dataDir' | 'appDatabaseUrl'> },
  name: string,
  env: Record<string, string> = {},
): AppBehindRedisProxy {
  let proxy: TcpProxy | undefined;
  let api: TestApp | undefined;
  beforeAll(async () => {
    let viaProxy: string;
    ({ proxy, viaProxy } = await TcpProxy.inFrontOf(TEST_REDIS_URL, 6379));
    api = await startTestApp(ctx.db, {
      REDIS_URL: viaProxy,
      REDIS_KEY_PREFIX: `pos-read-api-test:${name}:${process.pid}:${Date.now()}:`,
      ...env,
    });
  });
  afterAll(async () => {
    await api?.close();
    await proxy?.close();
  });
  return {
    get proxy() {
      if (!proxy) throw new Error('proxy not started');
      return proxy;
    },
    get api() {
      if (!api) throw new Error('app not started');
      return api;
    },
  };
}
