import { Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { CallerClaims } from '../auth/caller';
import { ProblemException } from '../common/errors/problem';
import { AppConfig } from '../config/app-config';
import { REPORT_CALLS_PER_MINUTE } from '../config/limits';
import { httpContext } from '../common/testing/http-context';
import { SharedLimitStorage } from '../common/throttling/shared-limit.storage';
import {
  refundReportCall,
  REPORT_THROTTLER_OPTIONS,
  ReportThrottlerGuard,
} from './report-throttler.guard';

const user = (userId: string): Partial<CallerClaims> => ({ userId });

async function guardOver(storage: Pick<SharedLimitStorage, 'take' | 'refund'>) {
  const guard = new ReportThrottlerGuard(
    { throttlers: [{ name: 'token-ip', ttl: 60_000, limit: 1 }, REPORT_THROTTLER_OPTIONS] },
    storage as SharedLimitStorage,
    new Reflector(),
  );
  await guard.onModuleInit();
  return guard;
}

/** One call by `userId` from `ip`: the headers set on the response, or the problem thrown. */
async function call(guard: ReportThrottlerGuard, userId: string | null, ip = '192.0.2.1') {
  const headers: Record<string, string> = {};
  const response = { header: (name: string, value: string) => (headers[name] = value) };
  const request = { ip, headers: {}, ...(userId === null ? {} : { user: user(userId) }) };
  try {
    await guard.canActivate(httpContext(request, { response }));
    return { headers, problem: null, request };
  } catch (error) {
    if (error instanceof ProblemException) return { headers, problem: error, request };
    throw error;
  }
}

describe(ReportThrottlerGuard.name, () => {
  let storage: SharedLimitStorage;
  beforeAll(() => Logger.overrideLogger(false)); // the outage case logs at debug
  beforeEach(() => {
    // No REDIS_URL: the in-memory sliding window, the same algorithm as the Redis one.
    storage = new SharedLimitStorage(new AppConfig());
  });
  afterEach(() => storage.onApplicationShutdown());

  it('should allow 12 calls a minute per user, whatever the address, with RateLimit headers', async () => {
    const guard = await guardOver(storage);
    for (let n = 1; n <= REPORT_CALLS_PER_MINUTE; n++) {
      const { headers, problem } = await call(guard, '7', `192.0.2.${n}`);
      expect(problem).toBeNull();
      expect(headers).toMatchObject({
        'RateLimit-Limit': '12',
        'RateLimit-Remaining': String(12 - n),
        'RateLimit-Policy': '12;w=60',
      });
    }
    const { problem } = await call(guard, '7', '192.0.2.99');
    expect(problem?.getStatus()).toBe(429);
    expect(problem?.headers).toMatchObject({ 'RateLimit-Remaining': '0', 'RateLimit-Limit': '12' });
    expect(Number(problem?.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it('should count users apart', async () => {
    const guard = await guardOver(storage);
    for (let n = 0; n < REPORT_CALLS_PER_MINUTE; n++) await call(guard, '7');
    const other = await call(guard, '8');
    expect(other.problem).toBeNull();
    expect(other.headers['RateLimit-Remaining']).toBe('11');
  });

  it('should answer 503 when the counters cannot be read (the limit is never dropped), and refund that very call', async () => {
    const taken: string[] = [];
    const refunded: string[] = [];
    const down = {
      take: (_key: string, _ttl: number, _limit: number, id: string) => {
        taken.push(id);
        return Promise.reject(new Error('connect ECONNREFUSED'));
      },
      refund: (_key: string, id: string) => {
        refunded.push(id);
        return Promise.resolve();
      },
    };
    const { problem } = await call(await guardOver(down), '7');
    expect(problem?.getStatus()).toBe(503);
    expect(problem?.detail).not.toMatch(/ECONNREFUSED/);
    expect(taken).toHaveLength(1);
    expect(refunded).toEqual(taken);
  });

  it('should give a counted call back with refundReportCall, once, and nothing for a call it did not count', async () => {
    const guard = await guardOver(storage);
    await call(guard, '7');
    const second = await call(guard, '7');
    expect(second.headers['RateLimit-Remaining']).toBe('10');
    await refundReportCall(second.request);
    await refundReportCall(second.request);
    await refundReportCall({});
    expect((await call(guard, '7')).headers['RateLimit-Remaining']).toBe('10');
  });

  it('should refuse to run before authentication (a wiring mistake, not a client error)', async () => {
    await expect(call(await guardOver(storage), null)).rejects.toThrow(/before authentication/);
  });

  it("should refuse to start when ThrottlerModule does not list the report's throttler", async () => {
    const guard = new ReportThrottlerGuard(
      { throttlers: [{ name: 'token-ip', ttl: 60_000, limit: 1 }] },
      storage,
      new Reflector(),
    );
    await expect(guard.onModuleInit()).rejects.toThrow(/must list the 'report' throttler/);
  });
});
