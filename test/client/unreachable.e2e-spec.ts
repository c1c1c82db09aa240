import { createServer, type Server } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { run } from '../../packages/client/src/cli/run';
import { freePort } from '../support/service-process';

/** pos-read with the real fetch (or the one given), no retries: its exit code and stderr. */
async function posRead(baseUrl: string, fetch?: typeof globalThis.fetch) {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const code = await run(['shops', '--base-url', baseUrl], {
    env: { POS_READ_USERNAME: 'u', POS_READ_PASSWORD: 'p' },
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stderr,
    client: { retry: { maxRetries: 0 }, ...(fetch ? { fetch } : {}) },
  });
  return { code, stderr: text };
}

describe('pos-read: "cannot reach the service" names the cause (issue 43)', () => {
  let plainTcp: Server;
  beforeAll(async () => {
    // Answers in clear text where TLS is expected.
    plainTcp = createServer((socket) => socket.end('HTTP/1.1 200 OK\r\n\r\n'));
    await new Promise<void>((resolve) => plainTcp.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => plainTcp.close());

  it.each([
    [
      'a refused connection',
      async () => `http://127.0.0.1:${await freePort()}`,
      /\(ECONNREFUSED, connection refused: nothing listens there\)/,
    ],
    [
      'an unknown host',
      async () => 'https://no-such-host.invalid',
      /\((ENOTFOUND, host not found \(DNS\)|EAI_AGAIN, DNS lookup failed for now)\)/,
    ],
    [
      'TLS that fails',
      async () => `https://127.0.0.1:${(plainTcp.address() as { port: number }).port}`,
      /\(ERR_SSL_\w+, TLS failed\)/,
    ],
    ['a port fetch refuses', async () => 'https://127.0.0.1:1', /\(bad port\)/],
  ])('should say so for %s, exit 6', async (_what, url, cause) => {
    const result = await posRead(await url());
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(
      /^pos-read: cannot reach the service: POST \/api\/v1\.0\/Token failed: TypeError /,
    );
    expect(result.stderr).toMatch(cause);
  });

  it('should name a connect timeout, and a GET that timed out after its retries', async () => {
    const timingOut: typeof fetch = () =>
      Promise.reject(
        Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('Connect Timeout Error'), {
            code: 'UND_ERR_CONNECT_TIMEOUT',
          }),
        }),
      );
    const result = await posRead('https://pos.example.com', timingOut);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/TypeError \(UND_ERR_CONNECT_TIMEOUT, timed out connecting\)/);
  });
});
