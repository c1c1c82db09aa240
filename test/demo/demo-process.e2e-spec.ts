import { DEMO_USERS } from '../../tools/seed/demo-data';
import { http } from '../support/http';
import { useDemoAsNpmStart } from '../support/demo-process';
import { outputLine } from '../support/service-process';

/** The message of a JSON log line. */
const messageOf = (line: string): string => (JSON.parse(line) as { msg: string }).msg;

describe('First start of the built service on the embedded demo database, as npm start runs it (node dist/tools/seed/start-development.js)', () => {
  const running = useDemoAsNpmStart();

  it('should print the URL of the API with the port it listens on (PORT=0: the one it got)', async () => {
    const { port } = new URL(running().baseUrl);
    expect(Number(port)).toBeGreaterThan(0);
    const line = messageOf(await outputLine(running(), /POS read API \S+ listening on /));
    expect(line).toMatch(
      new RegExp(
        `^POS read API \\S+ listening on http://localhost:${port}/api/v1\\.0 ` +
          '\\(APP_ENV=development, revision \\S+, Node v[\\d.]+\\)$',
      ),
    );
  });

  it('should print every demo user with its password and what it shows', async () => {
    for (const user of DEMO_USERS) {
      const line = await outputLine(running(), new RegExp(`Demo user ${user.username} / `));
      expect(messageOf(line)).toBe(`Demo user ${user.username} / ${user.password}: ${user.note}`);
    }
  });

  it('should print demo credentials and a URL that get a token from the running service', async () => {
    const [, url] = /listening on (\S+)/.exec(
      messageOf(await outputLine(running(), /POS read API \S+ listening on /)),
    ) as RegExpExecArray;
    const [, username, password] = /^Demo user (\S+) \/ (\S+): ApiUser/.exec(
      messageOf(await outputLine(running(), /Demo user \S+ \/ \S+: ApiUser/)),
    ) as RegExpExecArray;
    const printed = new URL(url.replace('localhost', '127.0.0.1'));
    const res = await http(printed.origin, `${printed.pathname}/Token`, {
      method: 'POST',
      json: { username, password },
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
  });
});
