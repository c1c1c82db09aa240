import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http } from '../support/http';
import { capturedLogLines } from '../support/log-capture';
import { appForBlock } from '../support/test-app';

// Sign-ins (argon2) and up to forty requests each: slow on a loaded machine.
jest.setTimeout(90_000);

const TOKEN = '/api/v1.0/Token';
const RATE_LIMITED = 'Rate limit exceeded: too many token requests from this address.';

/**
 * Issue 44, 4 and 5: one IPv6 allocation (a /48, what tunnel brokers and many home lines hand out)
 * has one budget of a name, so it can never spend the name's every-address budget and lock the
 * name for everyone; an address a proxy forwards with its port is one client whatever the port.
 *
 * One IPv6 host owns a whole /64: the sign-in budgets, the token route's per-address limit and
 * the log's `client` key it by that network (CLIENT_IPV6_PREFIX_LENGTH, 64), and an IPv4-mapped
 * address as the IPv4 address it maps. Defaults otherwise: 5 failures of a name per client, 20
 * per name, 30 token requests a minute per client.
 */
describeEachDatabase(
  'Client keys: an IPv6 /64 is one client, a /48 one budget, a port no new client',
  (ctx) => {
    const app = appForBlock(ctx, { TRUST_PROXY: 'loopback', LOGIN_MIN_RESPONSE_MS: '0' });

    const post = (from: string, username: string, password: string) =>
      http(app.current.baseUrl, TOKEN, {
        method: 'POST',
        headers: { 'X-Forwarded-For': from },
        json: { username, password },
      });

    it('should spend one budget for 40 guesses from 40 addresses of one /64, rate-limit them, and leave the name open to another allocation', async () => {
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
      // Another /48: the /64s of 2001:db8::/48 share its budget of the name (issue 44).
      expect((await post('2001:db8:1:2::1', user.username, user.password)).status).toBe(200);
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
      // Its own IPv4-mapped request: the tests run in any order (jest --randomize).
      await post('::ffff:198.51.100.20', 'nobody', 'guess');
      const clients = capturedLogLines()
        .filter((line) => line.includes('"url":"/api/v1.0/Token"'))
        .map((line) => (JSON.parse(line) as { client?: string }).client);
      expect(clients).toContain('2001:db8:0:7::/64');
      expect(clients).toContain('198.51.100.20');
      expect(clients.join()).not.toMatch(/127\.0\.0\.1|aaaa/);
    });

    const statusesOf = async (froms: string[], username: string, password = 'guess') => {
      const statuses: number[] = [];
      for (const from of froms) statuses.push((await post(from, username, password)).status);
      return statuses;
    };

    it('should give one /48 five guesses of a name in all, lock the name for that /48 only, and never for everyone', async () => {
      const user = await createUser(ctx.db.db);
      // Five guesses from each of four /64s of 2001:db8:44::/48: twenty, the name's whole budget.
      const froms = [1, 2, 3, 4].flatMap((net) =>
        [1, 2, 3, 4, 5].map((host) => `2001:db8:44:${net}::${host}`),
      );
      const statuses = await statusesOf(froms, user.username);
      expect(statuses.slice(0, 5)).toEqual(Array(5).fill(401));
      expect(statuses.slice(5)).toEqual(Array(15).fill(429));
      // The allocation is locked out of the name, from any of its /64s, even with the password...
      expect((await post('2001:db8:44:99::1', user.username, user.password)).status).toBe(429);
      // ...and nobody else is: another /48 and an IPv4 address sign in.
      expect((await post('2001:db8:45:1::1', user.username, user.password)).status).toBe(200);
      expect((await post('198.51.100.44', user.username, user.password)).status).toBe(200);
    });

    it('should count an IPv4 address forwarded with a port as the address, whatever the port', async () => {
      const user = await createUser(ctx.db.db);
      const froms = [1001, 1002, 1003, 1004, 1005, 1006, 1007].map((port) => `203.0.113.5:${port}`);
      expect(await statusesOf(froms, user.username)).toEqual([401, 401, 401, 401, 401, 429, 429]);
      // The lock is the address's: the bare address is refused too, even with the password.
      expect((await post('203.0.113.5', user.username, user.password)).status).toBe(429);
    });

    it('should count a bracketed IPv6 address, with or without a port, as its /64', async () => {
      const user = await createUser(ctx.db.db);
      const froms = ['[2001:db8:46::1]:1001', '[2001:db8:46::2]:1002', '[2001:db8:46::3]'];
      const statuses = await statusesOf([...froms, ...froms], user.username);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await post('2001:db8:46::9', user.username, user.password)).status).toBe(429);
    });
  },
);
