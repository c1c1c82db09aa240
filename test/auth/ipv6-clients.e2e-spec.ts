import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http } from '../support/http';
import { capturedLogLines } from '../support/log-capture';
import { appForBlock } from '../support/test-app';

// Sign-ins (argon2) and several requests each: slow on a loaded machine.
jest.setTimeout(60_000);

const TOKEN = '/api/v1.0/Token';
const RATE_LIMITED = 'Rate limit exceeded: too many token requests from this address.';

/**
 * One IPv6 host owns a whole /64: the sign-in budgets, the token route's per-address limit and
 * the log's `client` key it by that network (CLIENT_IPV6_PREFIX_LENGTH, 64), and an IPv4-mapped
 * address as the IPv4 address it maps. Defaults otherwise: 5 failures of a name per client, 20
 * per name, 30 token requests a minute per client.
 */
describeEachDatabase('IPv6 clients are keyed by their /64', (ctx) => {
  const app = appForBlock(ctx, { TRUST_PROXY: 'loopback', LOGIN_MIN_RESPONSE_MS: '0' });

  const post = (from: string, username: string, password: string) =>
    http(app.current.baseUrl, TOKEN, {
      method: 'POST',
      headers: { 'X-Forwarded-For': from },
      json: { username, password },
    });

  it('should spend one budget for 40 guesses from 40 addresses of one /64, rate-limit them, and leave the name open to another network', async () => {
    const user = await createUser(ctx.db.db);
    const answers = [];
    for (let host = 1; host <= 40; host++) {
      answers.push(await post(`2001:db8:0:1::${host.toString(16)}`, user.username, 'guess'));
    }
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array(35).fill(429));
    // Past 30 a minute, the per-address limit answers, not only the lock.
    expect(answers.slice(30).map((a) => a.body.detail)).toEqual(Array(10).fill(RATE_LIMITED));
    expect((await post('2001:db8:0:2::1', user.username, user.password)).status).toBe(200);
  });

  it('should count an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const user = await createUser(ctx.db.db);
    const from = ['198.51.100.20', '::ffff:198.51.100.20', '::ffff:c633:6414'];
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await post(from[i % 3], user.username, 'guess')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await post('198.51.100.21', user.username, user.password)).status).toBe(200);
  });

  it("should log the client's /64, not the address of the socket or of the host", async () => {
    await post('2001:db8:0:7:aaaa::1', 'nobody', 'guess');
    const clients = capturedLogLines()
      .filter((line) => line.includes('"url":"/api/v1.0/Token"'))
      .map((line) => (JSON.parse(line) as { client?: string }).client);
    expect(clients).toContain('2001:db8:0:7::/64');
    expect(clients).toContain('198.51.100.20');
    expect(clients.join()).not.toMatch(/127\.0\.0\.1|aaaa/);
  });
});
