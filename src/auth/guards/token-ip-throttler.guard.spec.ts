import { Reflector } from '@nestjs/core';
import { ProblemException } from '../../common/errors/problem';
import { httpContext } from '../../common/testing/http-context';
import { SharedLimitStorage } from '../../common/throttling/shared-limit.storage';
import { AppConfig } from '../../config/app-config';
import { TokenOutcomes } from '../token-outcomes';
import { TOKEN_IP_THROTTLER, TokenIpThrottlerGuard } from './token-ip-throttler.guard';

describe(TokenIpThrottlerGuard.name, () => {
  let storage: SharedLimitStorage;
  let guard: TokenIpThrottlerGuard;
  let outcomes: TokenOutcomes;

  beforeEach(async () => {
    storage = new SharedLimitStorage(new AppConfig());
    // Another named throttler in the module's list, stricter: it must not apply here.
    const throttlers = [
      { name: TOKEN_IP_THROTTLER, ttl: 60_000, limit: 2 },
      { name: 'other', ttl: 60_000, limit: 1 },
    ];
    outcomes = new TokenOutcomes();
    guard = new TokenIpThrottlerGuard(
      { throttlers },
      storage,
      new Reflector(),
      outcomes,
      new AppConfig(),
    );
    await guard.onModuleInit();
  });
  afterEach(() => storage.onApplicationShutdown());

  const call = (ip: string) =>
    guard.canActivate(httpContext({ ip, headers: {} }, { response: {} }));

  it('should apply its own throttler only: the limit of token-ip per client address', async () => {
    await expect(call('192.0.2.1')).resolves.toBe(true);
    await expect(call('192.0.2.1')).resolves.toBe(true);
    const refused = await call('192.0.2.1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemException);
    expect((refused as ProblemException).getStatus()).toBe(429);
  });

  it('should answer 429 problem details with Retry-After, saying which limit', async () => {
    await call('192.0.2.1');
    await call('192.0.2.1');
    const refused = (await call('192.0.2.1').catch((error: unknown) => error)) as ProblemException;
    expect(refused.detail).toBe('Rate limit exceeded: too many token requests from this address.');
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it('should count each of its refusals as rate_limited, and nothing it lets through', async () => {
    await call('192.0.2.1');
    await call('192.0.2.1');
    expect(outcomes.counts().refused.size).toBe(0);
    await call('192.0.2.1').catch(() => undefined);
    await call('192.0.2.1').catch(() => undefined);
    expect(outcomes.counts().refused).toEqual(new Map([['rate_limited', 2]]));
  });

  it('should count client addresses apart', async () => {
    await call('192.0.2.1');
    await call('192.0.2.1');
    await expect(call('192.0.2.2')).resolves.toBe(true);
  });

  it('should count one IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 address', async () => {
    await call('2001:db8:0:1::1');
    await call('2001:db8:0:1:ffff::40');
    await expect(call('2001:db8:0:1::99')).rejects.toBeInstanceOf(ProblemException);
    await expect(call('2001:db8:0:2::1')).resolves.toBe(true);
    await call('192.0.2.7');
    await call('::ffff:192.0.2.7');
    await expect(call('192.0.2.7')).rejects.toBeInstanceOf(ProblemException);
  });

  it('should keep counting in memory while the shared store cannot be reached', async () => {
    jest.spyOn(storage, 'increment').mockRejectedValue(new Error('Redis is down'));
    await expect(call('192.0.2.1')).resolves.toBe(true);
    await expect(call('192.0.2.1')).resolves.toBe(true);
    await expect(call('192.0.2.1')).rejects.toBeInstanceOf(ProblemException);
  });
});
