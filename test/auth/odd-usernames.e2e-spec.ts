import { createUser } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { mariadb, requires } from '../support/requirements';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const TOKEN = '/api/v1.0/Token';

/**
 * Names a latin1 column cannot hold, and lengths past the back-office's 64 characters; no two
 * fold together under utf8mb4_unicode_ci (which ignores width and combining accents).
 */
const ODD_NAMES: Array<[string, string]> = [
  ['fullwidth letters (of an existing user)', 'ａｌｉｃｅ'],
  ['CJK', '山田太郎'],
  ['emoji', '🦊fox🔑'],
  ['combining accents', 'co\u0301mbi\u0300ne\u0327d'],
  ['200 characters', 'n'.repeat(200)],
  ['200 fullwidth characters', 'ｗ'.repeat(200)],
  ['128 emoji (256 UTF-16 units, the limit)', '🔑'.repeat(128)],
];

for (const kind of ['sqlite', 'mysql'] as const) {
  requires(...(kind === 'mysql' ? [mariadb] : [])).describe(
    `Sign-in with any username on a database whose default character set is latin1 [${kind === 'mysql' ? 'mariadb' : kind}]`,
    () => {
      let database: TestDatabase;
      let api: TestApp;

      beforeAll(async () => {
        database = await createTestDatabase(kind, 'CHARACTER SET latin1 COLLATE latin1_swedish_ci');
        await createUser(database.db, { username: 'alice' });
        api = await startTestApp(database, {
          LOGIN_MAX_FAILURES: '2',
          LOGIN_MIN_RESPONSE_MS: '0',
          TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
        });
      });
      afterAll(async () => {
        await api?.close();
        await database?.drop();
      });

      it.each(ODD_NAMES)(
        'should answer a username with %s 401 and then 429, never 500',
        async (_case, username) => {
          const statuses: number[] = [];
          for (let i = 0; i < 3; i++) {
            const res = await http(api.baseUrl, TOKEN, {
              method: 'POST',
              json: { username, password: 'wrong' },
            });
            expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
            statuses.push(res.status);
          }
          expect(statuses).toEqual([401, 401, 429]);
        },
      );
    },
  );
}
