import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { ApiError, PosReadClient } from '../../packages/client/src/index';
import { run } from '../../packages/client/src/cli/run';

const USER = { username: 'integration', password: 'transit-secret-1' };

/** An HTTP server on loopback answering with `handler`; records the bodies it received. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, server };
}

describe('The client keeps the password on the way to the service it was given', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('should not follow a redirect of the token request: the other origin never gets the credentials', async () => {
    const thief = await serve((_req, res) => res.writeHead(200).end('{}'));
    const service = await serve((_req, res) =>
      res.writeHead(307, { Location: `${thief.url}/collect` }).end(),
    );
    servers.push(thief.server, service.server);
    const client = new PosReadClient({ baseUrl: service.url, ...USER });
    const refused = await client.token().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(307);
    expect((refused as ApiError).message).toMatch(
      /Redirects of the token request are not followed/,
    );
    expect(service.bodies).toHaveLength(1);
    expect(thief.bodies).toEqual([]);
  });

  it.each(['http://pos-api.example.com', 'http://10.0.0.7:3000', 'ftp://pos-api.example.com'])(
    'should refuse the base URL %s, which would carry the password in clear text',
    (baseUrl) => {
      expect(() => new PosReadClient({ baseUrl, ...USER })).toThrow(TypeError);
    },
  );

  it.each([
    'https://pos-api.example.com',
    'http://localhost:3000',
    'http://127.0.0.1:3000/',
    'http://[::1]:3000',
  ])('should accept the base URL %s', (baseUrl) => {
    expect(() => new PosReadClient({ baseUrl, ...USER })).not.toThrow();
  });

  it('should accept http:// on the network only when the caller opts in', () => {
    const baseUrl = 'http://pos-api.internal:3000';
    expect(() => new PosReadClient({ baseUrl, ...USER, allowInsecureHttp: true })).not.toThrow();
  });

  it('should make pos-read refuse such a base URL with a usage error (exit 2), and take --allow-insecure-http', async () => {
    const cli = async (argv: string[]) => {
      const stderr = new PassThrough();
      let text = '';
      stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const env = { POS_READ_USERNAME: USER.username, POS_READ_PASSWORD: USER.password };
      const io = { env, stdin: Readable.from([]), stdout: new PassThrough(), stderr };
      return { code: await run(argv, io), stderr: text };
    };
    const refused = await cli(['token', '--base-url', 'http://pos-api.example.com']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/clear text/);
    // Opted in, it goes on to the network (nothing answers at .invalid: 6, unreachable).
    const optedIn = await cli([
      'token',
      '--base-url',
      'http://pos.invalid',
      '--allow-insecure-http',
    ]);
    expect(optedIn.code).toBe(6);
  });
});
