import { describeEachDatabase } from '../support/describe-databases';
import { http } from '../support/http';
import { instancesSharingRedis } from '../support/shared-redis';
import type { TestApp } from '../support/test-app';
import { redis as redisServer } from '../support/requirements';

const RATE_LIMITED = 'Rate limit exceeded: too many token requests from this address.';

/**
 * The token route's per-address limit (TOKEN_RATE_LIMIT_PER_MINUTE, 4 here) counts in Redis when
 * REDIS_URL is set, as the report's does: N instances allow 4 a minute from one address, not 4N.
 */
describeEachDatabase(
  'The token route: the per-address limit across instances (Redis)',
  (ctx) => {
    const instances = instancesSharingRedis(ctx, {
      TRUST_PROXY: 'loopback',
      TOKEN_RATE_LIMIT_PER_MINUTE: '4',
      LOGIN_MIN_RESPONSE_MS: '0',
    });

    const post = (instance: TestApp, from: string, call: number) =>
      http(instance.baseUrl, '/api/v1.0/Token', {
        method: 'POST',
        headers: { 'X-Forwarded-For': from },
        // A name per call: only the per-address limit, never a name's budget, can refuse.
        json: { username: `nobody-${call}`, password: 'guess' },
      });

    it('should allow 4 token requests a minute from one address across two instances, not 8', async () => {
      const statuses = [];
      for (let call = 1; call <= 4; call++) {
        statuses.push(
          (await post(call % 2 ? instances.first : instances.second, '203.0.113.50', call)).status,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 401]);
      for (const instance of [instances.first, instances.second]) {
        const refused = await post(instance, '203.0.113.50', 9);
        expect(refused.status).toBe(429);
        expect(refused.body.detail).toBe(RATE_LIMITED);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      // Another address has its own count; an IPv6 /64 is one address.
      expect((await post(instances.second, '2001:db8:5::1', 10)).status).toBe(401);
      expect((await instances.redis.keys(`${instances.prefix}*`)).length).toBeGreaterThan(0);
    });
  },
  { requires: [redisServer] },
);
