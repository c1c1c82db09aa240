import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { http } from '../support/http';
import { recordStatements } from '../support/recorded-statements';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = '/api/v1.0/Token';

/** The kind of each statement, as `UPDATE api_login_failures` or `SELECT bo_users`. */
const kinds = (sent: Array<{ sql: string }>): string[] =>
  sent
    .map(({ sql }) => sql.replace(/\s+/g, ' ').trim())
    .filter((sql) => /api_login_failures|bo_user/.test(sql))
    .map((sql) => {
      const verb = sql.split(' ')[0];
      const table = /(api_login_failures|bo_users|bo_user_roles|bo_user_shops)/.exec(sql)?.[1];
      return `${verb} ${table}`;
    });

// A sign-in's database work is what the event loop pays per sign-in during a surge (decision
// 29.16): a right password of a name with its failure rows runs six statements, no more.
describeEachDatabase('The statements of a sign-in', (ctx) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp(ctx.db, { LOGIN_MIN_RESPONSE_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('should reserve with one statement per budget, read the user, reset the counts and read the grants on a right password', async () => {
    const shops = [await createShop(ctx.db.db), await createShop(ctx.db.db)];
    const user = await createUser(ctx.db.db, { shops });
    const signIn = async (password: string) => {
      const sent = recordStatements(api);
      const res = await http(api.baseUrl, TOKEN, {
        method: 'POST',
        json: { username: user.username, password },
      });
      jest.restoreAllMocks();
      return { status: res.status, kinds: kinds(sent) };
    };
    const right = [
      'UPDATE api_login_failures', // the guess taken from the address's budget
      'UPDATE api_login_failures', // and from the name's, every address together
      'SELECT bo_users',
      'UPDATE api_login_failures', // the success resets both counts
      'SELECT bo_user_roles',
      'SELECT bo_user_shops',
    ];
    // The name's first sign-in from this address makes its two rows first.
    expect(await signIn(user.password)).toEqual({
      status: 200,
      kinds: [right[0], 'INSERT api_login_failures', ...right],
    });
    expect(await signIn(user.password)).toEqual({ status: 200, kinds: right });
    // A wrong password: the reservation, the user, a lock set only where a budget is spent.
    expect(await signIn('not-the-password')).toEqual({
      status: 401,
      kinds: [
        'UPDATE api_login_failures',
        'UPDATE api_login_failures',
        'SELECT bo_users',
        'UPDATE api_login_failures',
        'UPDATE api_login_failures',
      ],
    });
    expect(await signIn(user.password)).toEqual({ status: 200, kinds: right });
  });
});
