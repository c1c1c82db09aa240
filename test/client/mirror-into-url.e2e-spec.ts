import { PassThrough, Readable } from 'node:stream';
import { run } from '../../packages/client/src/cli/run';
import { withoutPassword } from '../../packages/client/src/mirror/store';
import { mysqlUri, plainTextWarning } from '../../packages/client/src/mirror/transport-security';

const SECRET = 's3cr3t-in-the-query';

async function posRead(args: string[]) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c));
  const stderr = new PassThrough().on('data', (c: Buffer) => err.push(c));
  const fetch: typeof globalThis.fetch = async () =>
    new Response(JSON.stringify({ token: 'fake', expiration: new Date(Date.now() + 3_600_000) }), {
      headers: { 'content-type': 'application/json' },
    });
  const code = await run(['--base-url', 'https://fake', ...args], {
    env: { POS_READ_USERNAME: 'u', POS_READ_PASSWORD: 'p' },
    stdin: Readable.from([]),
    stdout,
    stderr,
    client: { fetch },
  });
  return { code, out: Buffer.concat(out).toString(), err: Buffer.concat(err).toString() };
}

/** Issue 54, item 3: the --into URL of the mirror, its password and its transport. */
describe('pos-read mirror --into URL', () => {
  it.each([
    `postgres://mirror@db-host/pos?password=${SECRET}`,
    `mysql://mirror@db-host:3306/pos?PassWord=${SECRET}`,
    `postgres://mirror@db-host/pos?sslmode=verify-full&sslpassword=${SECRET}`,
  ])(
    'should refuse a password given as a query parameter, as userinfo, never printing it: %s',
    async (into) => {
      for (const command of ['mirror', 'verify']) {
        const result = await posRead([command, '--into', into]);
        expect(result.code).toBe(2);
        expect(result.err).toMatch(/a password in --into is refused .* PGPASSWORD/);
        expect(result.err + result.out).not.toContain(SECRET);
      }
    },
  );

  it('should hide a query password in the messages that name the URL', () => {
    expect(withoutPassword(`mysql://u:pw@h/db?password=${SECRET}&ssl=true`)).toBe(
      'mysql://u:***@h/db?password=***&ssl=true',
    );
    expect(withoutPassword(`not a url ?sslpassword=${SECRET}&x=1`)).not.toContain(SECRET);
  });

  it('should warn when a host that is not this machine is used without TLS, and only then', async () => {
    expect(plainTextWarning('postgres://u@db.example.com/pos')).toMatch(
      /^the connection to db\.example\.com is not encrypted: .*sslmode=verify-full/,
    );
    expect(plainTextWarning('mysql://u@10.0.0.5:3306/pos')).toMatch(/10\.0\.0\.5 .* \?ssl=true/);
    expect(plainTextWarning('postgres://u@db.example.com/pos?sslmode=prefer')).toBeDefined();
    expect(plainTextWarning('mysql://u@db.example.com/pos?ssl=false')).toBeDefined();
    for (const safe of [
      'postgres://u@db.example.com/pos?sslmode=verify-full',
      'postgres://u@db.example.com/pos?sslmode=require',
      'mysql://u@db.example.com/pos?ssl=true',
      'mariadb://u@db.example.com/pos?ssl={"rejectUnauthorized":true}',
      'postgres://u@127.0.0.1/pos',
      'mysql://u@localhost/pos',
      'postgres://u@[::1]/pos',
      'mirror.sqlite',
    ]) {
      expect([safe, plainTextWarning(safe)]).toEqual([safe, undefined]);
    }
    const warned = await posRead(['mirror', '--into', 'mysql://u@db-host.invalid:3306/pos']);
    expect(warned.err).toMatch(
      /^pos-read: warning: the connection to db-host\.invalid is not encrypted/m,
    );
    const quiet = await posRead([
      'mirror',
      '--into',
      'mysql://u@db-host.invalid:3306/pos?ssl=true',
    ]);
    expect(quiet.err).not.toMatch(/not encrypted/);
  });

  it('should hand mysql2 ssl=true as verified TLS ({}), the object it wants', () => {
    expect(new URL(mysqlUri('mariadb://u@h:3306/db?ssl=true')).searchParams.get('ssl')).toBe('{}');
    expect(new URL(mysqlUri('mysql://u@h:3306/db?ssl=0')).searchParams.has('ssl')).toBe(false);
    expect(mysqlUri('mariadb://u:p%40@h:3306/db')).toBe('mysql://u:p%40@h:3306/db');
  });
});
