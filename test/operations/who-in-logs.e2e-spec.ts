import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http, HttpResult } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = '/api/v1.0/Token';

type LogLine = Record<string, any>;

/**
 * Issue 46, item 5: the log says who. An authenticated request's line names the token's user (id
 * and name, never the token); a refused sign-in logs its reason, which its answer never tells.
 */
describeEachDatabase(
  'Logs say who: the caller of each request, the reason of each refusal',
  (ctx) => {
    let api: TestApp;
    let lines: LogLine[];
    const answers: Record<string, HttpResult> = {};
    let user: { id: string; username: string; password: string };
    let disabled: { id: string; username: string; password: string };
    let roleless: { id: string; username: string; password: string };
    let token: string;

    beforeAll(async () => {
      const logFile = path.join(ctx.db.dataDir, 'who.log');
      const shop = await createShop(ctx.db.db);
      user = await createUser(ctx.db.db, { shops: [shop] });
      disabled = await createUser(ctx.db.db, { shops: [shop], enabled: false });
      roleless = await createUser(ctx.db.db, { shops: [shop], roles: [] });
      const locked = await createUser(ctx.db.db, { shops: [shop] });
      __resetOutOfContextForTests();
      api = await startTestApp(ctx.db, { LOG_FILE: logFile, LOGIN_MAX_FAILURES: '2' });
      const signIn = (username: string, password: string) =>
        http(api.baseUrl, TOKEN, { method: 'POST', json: { username, password } });

      token = await getToken(api.baseUrl, user.username, user.password);
      expect(
        (await http(api.baseUrl, `/api/v1.0/sales?ShopCode=${shop}`, { headers: bearer(token) }))
          .status,
      ).toBe(200);
      answers.unknown_name = await signIn('nobody-by-this-name', user.password);
      answers.wrong_password = await signIn(user.username, `${user.password}x`);
      answers.disabled = await signIn(disabled.username, disabled.password);
      answers.missing_role = await signIn(roleless.username, roleless.password);
      await signIn(locked.username, `${locked.password}x`);
      await signIn(locked.username, `${locked.password}y`);
      answers.locked = await signIn(locked.username, locked.password);

      await api.close();
      lines = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine);
    });
    afterAll(async () => {
      await api?.close().catch(() => undefined);
    });

    it("should name the token's user (id and name claim) on an authenticated request's line", () => {
      const sales = lines.find((l) => l.req?.url?.startsWith('/api/v1.0/sales') && l.res);
      expect(sales).toMatchObject({
        res: { statusCode: 200 },
        user: { id: user.id, name: user.username },
      });
      expect(Object.keys(sales?.user ?? {}).sort()).toEqual(['id', 'name']);
    });

    it('should name no user on the lines of refused sign-ins', () => {
      const refused = lines.filter(
        (l) => l.req?.url === TOKEN && l.res && l.res.statusCode !== 200,
      );
      expect(refused.length).toBeGreaterThanOrEqual(7);
      for (const line of refused) expect(line.user).toBeUndefined();
    });

    it("should name the user (id and name) on a successful sign-in's line, as request lines do, never the password (issue 56)", () => {
      const issued = lines.filter((l) => l.req?.url === TOKEN && l.res?.statusCode === 200);
      expect(issued).toEqual([
        expect.objectContaining({ user: { id: user.id, name: user.username } }),
      ]);
      expect(JSON.stringify(issued)).not.toContain(user.password);
    });

    it('should log every refused sign-in with its reason, the name and the client', () => {
      const refusals = lines.filter((l) => l.context === 'SignIn');
      const byReason = (reason: string) => refusals.filter((l) => l.reason === reason);
      expect(byReason('unknown_name')).toEqual([
        expect.objectContaining({
          level: 'info',
          username: 'nobody-by-this-name',
          client: '127.0.0.1',
          msg: 'Sign-in refused: unknown name',
          requestId: expect.any(String),
        }),
      ]);
      expect(byReason('unknown_name')[0].userId).toBeUndefined();
      expect(byReason('wrong_password').filter((l) => l.username === user.username)).toEqual([
        expect.objectContaining({ userId: user.id }),
      ]);
      expect(byReason('disabled')).toEqual([
        expect.objectContaining({ username: disabled.username, userId: disabled.id }),
      ]);
      expect(byReason('missing_role')).toEqual([
        expect.objectContaining({ username: roleless.username, userId: roleless.id }),
      ]);
      expect(byReason('locked')).toHaveLength(1);
    });

    it('should answer the three 401 refusals identically, naming no reason', () => {
      const comparable = (res: HttpResult) => ({
        status: res.status,
        type: res.headers.get('content-type'),
        body: { ...res.body, requestId: undefined },
      });
      expect(comparable(answers.wrong_password)).toEqual(comparable(answers.unknown_name));
      expect(comparable(answers.disabled)).toEqual(comparable(answers.unknown_name));
      expect(answers.unknown_name.status).toBe(401);
      for (const res of Object.values(answers)) {
        expect(JSON.stringify(res.body)).not.toMatch(
          /unknown name|wrong password|disabled|reason/i,
        );
      }
    });
  },
);
