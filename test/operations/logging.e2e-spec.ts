import { readFileSync } from 'node:fs';
import * as path from 'node:path';
// nestjs-pino keeps one logger for lines outside requests per process: the first app's. This
// spec starts its own app per database, so it resets it (production runs one app per process).
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { BackofficeUsersRepository } from '../../src/auth/backoffice-users.repository';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = '/api/v1.0/Token';
const SALES = '/api/v1.0/sales';

describeEachDatabase('Logs: JSON lines with the request id, and no secret in them', (ctx) => {
  let api: TestApp;
  let logFile: string;
  const requestId = 'trace-me-42';
  const password = 'S3cret-Pa55word-for-logs!';
  let token: string;
  let hash: string;
  let lines: Array<Record<string, any>>;
  let raw: string;

  beforeAll(async () => {
    logFile = path.join(ctx.db.dataDir, 'service.log');
    const shop = await createShop(ctx.db.db);
    const user = await createUser(ctx.db.db, { shops: [shop], password });
    const victim = await createUser(ctx.db.db, { password });
    const [row] = await ctx.db.db.query('SELECT password_hash FROM bo_users WHERE id = ?', [
      user.id,
    ]);
    hash = row.password_hash;
    __resetOutOfContextForTests();
    api = await startTestApp(ctx.db, {
      LOG_LEVEL: 'trace',
      LOG_FILE: logFile,
      LOGIN_MAX_FAILURES: '2',
    });
    const base = api.baseUrl;
    const post = (body: string, headers: Record<string, string> = {}) =>
      http(base, TOKEN, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json', ...headers },
      });

    // Token: success, wrong password, unknown user, lockout, bodies that do not parse.
    token = await getToken(base, user.username, password);
    await post(JSON.stringify({ username: victim.username, password: `${password}x` }));
    await post(JSON.stringify({ username: victim.username, password: `${password}y` }));
    await post(JSON.stringify({ username: victim.username, password }));
    await post(JSON.stringify({ username: 'no-such-user', password }));
    await post(`{"username":"${user.username}","password":"${password}"`);
    await post(`username=${user.username}&password=${password}`, {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    await post(JSON.stringify({ username: user.username, password, extra: password }));
    // Data calls: right, wrong prefix, token in the URL, bad parameter, expired-looking token.
    await http(base, `${SALES}?ShopCode=${shop}`, {
      headers: { ...bearer(token), 'X-Request-Id': requestId },
    });
    await http(base, SALES, { headers: { Authorization: token } });
    await http(base, `${SALES}?access_token=${token}`);
    await http(base, `${SALES}?Bogus=${token}`, { headers: bearer(token) });
    await http(base, SALES, {
      headers: { Authorization: `Bearer ${token}x`, Cookie: `s=${token}` },
    });
    // An unexpected error whose message and fields carry secrets: logged with its stack.
    const users = api.app.get(BackofficeUsersRepository);
    const boom = Object.assign(new Error(`exploded near ${hash} with ${token}`), {
      password_hash: hash,
      authorization: `Bearer ${token}`,
      parameters: [password],
    });
    jest.spyOn(users, 'rolesOf').mockRejectedValueOnce(boom);
    const failed = await post(JSON.stringify({ username: user.username, password }));
    expect(failed.status).toBe(500);

    await api.close();
    raw = readFileSync(logFile, 'utf8');
    lines = raw
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l));
  });
  afterAll(async () => {
    await api?.close().catch(() => undefined);
  });

  it('should write one JSON object per line, with level, time and message', () => {
    expect(lines.length).toBeGreaterThan(15);
    for (const line of lines) {
      expect(line).toEqual(
        expect.objectContaining({ level: expect.any(String), time: expect.any(String) }),
      );
    }
  });

  it('should log each request once with the id of X-Request-Id, method, route, status and duration', () => {
    const mine = lines.filter((l) => l.requestId === requestId);
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine).toContainEqual(
      expect.objectContaining({
        req: expect.objectContaining({ id: requestId, method: 'GET' }),
        res: { statusCode: 200 },
        durationMs: expect.any(Number),
      }),
    );
  });

  it('should give every request a request id, generated when the client sent none', () => {
    const completed = lines.filter((l) => l.res?.statusCode);
    expect(completed.length).toBeGreaterThanOrEqual(14);
    for (const line of completed) expect(line.requestId).toMatch(/^[\w.:-]+$/);
  });

  it('should log the unexpected error at level error with the request id of its problem body', () => {
    const errors = lines.filter((l) => l.level === 'error' && l.err);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0].err.stack).toMatch(/exploded near/);
    expect(errors[0].requestId).toEqual(expect.any(String));
    expect(errors[0].err.type).toBe('Error');
  });

  it('should never log the password, the token, the password hash or the Authorization value', () => {
    const [header, payload, signature] = token.split('.');
    for (const secret of [password, token, `${payload}.${signature}`, signature, hash]) {
      expect(raw).not.toContain(secret);
    }
    expect(raw).not.toContain(header + '.' + payload);
    // No part of the hash either: its salt and digest are the last two $-separated fields.
    for (const part of hash.split('$').slice(-2)) expect(raw).not.toContain(part);
    expect(raw).not.toMatch(/\$argon2id\$/);
    expect(raw).toContain('[Redacted');
  });
});

describeEachDatabase('Request id: echoed in the header and in problem bodies', (ctx) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('should echo X-Request-Id in the response header and the problem body', async () => {
    const res = await http(api.baseUrl, SALES, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect(res.body.requestId).toBe('abc-123');
  });

  it('should generate a request id when none (or an unusable one) is sent', async () => {
    const res = await http(api.baseUrl, SALES, {
      headers: { 'X-Request-Id': 'bad id with spaces' },
    });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.requestId).toBe(id);
  });
});
