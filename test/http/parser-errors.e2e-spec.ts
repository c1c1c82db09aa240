import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { rawExchange } from '../operations/support/raw-http';

const PROBLEM = /^application\/problem\+json/;

describeEachDatabase(
  'Requests the HTTP parser refuses are problems too, never Fastify JSON',
  (ctx) => {
    let api: TestApp;
    beforeAll(async () => {
      api = await startTestApp(ctx.db);
    });
    afterAll(async () => {
      await api?.close();
    });

    it.each([
      ['arrays', `{"username":"a","password":"b","x":${'['.repeat(2000)}${']'.repeat(2000)}}`],
      ['objects', `${'{"x":'.repeat(2000)}1${'}'.repeat(2000)}`],
    ])(
      'should answer JSON nested 2,000 deep (%s) with a 400 problem, not a 500',
      async (_kind, body) => {
        const res = await http(api.baseUrl, '/api/v1.0/Token', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(PROBLEM);
        expect(res.body).toMatchObject({ status: 400, detail: expect.stringContaining('32') });
      },
    );

    it('should answer a URL over 16 KiB with a 431 problem naming the limit', async () => {
      const token = forgeToken({ claims: { shop_code: ['A1'] } });
      const res = await http(api.baseUrl, `/api/v1.0/sales?ShopCode=${'A'.repeat(20_000)}`, {
        headers: bearer(token),
      });
      expect(res.status).toBe(431);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
      expect(res.body).toMatchObject({
        type: 'urn:pos-read-api:problem:request-header-fields-too-large',
        status: 431,
        detail: expect.stringContaining('16 KiB'),
      });
      expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
    });

    it('should answer headers over 16 KiB with a 431 problem', async () => {
      const res = await http(api.baseUrl, '/api/v1.0/sales', {
        headers: { 'X-Padding': 'p'.repeat(20_000) },
      });
      expect(res.status).toBe(431);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
    });

    it('should answer bytes that are not HTTP with a 400 problem and close', async () => {
      const answer = await rawExchange(api.baseUrl, 'HELLO /\x00 NOT-HTTP\r\n\r\n');
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head).toMatch(/content-type: application\/problem\+json/i);
      expect(head).toMatch(/connection: close/i);
      expect(JSON.parse(body)).toMatchObject({
        type: 'urn:pos-read-api:problem:malformed-request',
        status: 400,
      });
    });
  },
);
