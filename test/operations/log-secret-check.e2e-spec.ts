import { scrubLogLine } from '../../src/operations/logging/log-scrubber';
import {
  SAMPLE_ARGON2 as ARGON2,
  SAMPLE_ASPNET_V2 as ASPNET_V2,
  SAMPLE_ASPNET_V3 as ASPNET_V3,
  SAMPLE_BCRYPT as BCRYPT,
} from '../../src/operations/logging/testing/secret-samples.fixture';
import { findSecrets, secretsFoundMessage, TestSecrets } from '../support/log-secrets';
import { TEST_PRIVATE_KEY } from '../support/test-app';
import { forgeToken } from '../support/tokens';

const PASSWORD = 'a "quoted" test-password';

const line = (msg: string) =>
  JSON.stringify({ level: 'info', requestId: 'r-1', msg, req: { url: '/api/v1.0/sales' } });

describe('The check of every e2e log for secrets (test/support/no-secrets-in-logs.ts)', () => {
  const known = new TestSecrets();
  known.addPassword(PASSWORD);
  known.addPasswordHash(ASPNET_V2);
  const token = forgeToken();

  it.each([
    ['JWT', `token ${token}`],
    ['Bearer token', 'Authorization: Bearer abcdefgh12345678'],
    ['argon2 hash', `hash ${ARGON2}`],
    ['bcrypt hash', `hash ${BCRYPT}`],
    ['ASP.NET Identity hash', `hash ${ASPNET_V3}`],
    ['PEM block', TEST_PRIVATE_KEY],
    ['password of a test user', `signing in with ${PASSWORD}`],
    ['password hash of a test user', `hash ${ASPNET_V2}`],
  ])('should detect a log line holding: %s', (kind, msg) => {
    const found = findSecrets([line('GET 200'), line(msg)], known);
    expect([...found]).toEqual([[kind, 1]]);
  });

  it('should name the spec and the kinds of secret in its failure message, never the secret', () => {
    const found = findSecrets([line(`${token} ${PASSWORD}`), line(token)], known);
    const message = secretsFoundMessage('test/auth/token.e2e-spec.ts', found, 'the-log-file');
    expect(message).toContain('test/auth/token.e2e-spec.ts');
    expect(message).toContain('JWT (2 line(s))');
    expect(message).toContain('password of a test user (1 line(s))');
    expect(message).toContain('the-log-file');
    expect(message).not.toContain(token);
    expect(message).not.toContain(PASSWORD);
  });

  it('should find nothing in lines the service scrubbed, nor in ordinary lines', () => {
    const scrubbed = scrubLogLine(
      line(`Bearer ${token} ${ARGON2} ${BCRYPT} ${ASPNET_V3} ${TEST_PRIVATE_KEY}`),
    );
    const ordinary = [
      line('GET 401'),
      line('WWW-Authenticate: Bearer realm="pos-read-api"'),
      line('Content-Type text/plain refused: a plain, wrong request'),
    ];
    expect(findSecrets([scrubbed, ...ordinary], known)).toEqual(new Map());
  });
});
