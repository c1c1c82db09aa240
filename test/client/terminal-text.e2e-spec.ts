import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { run } from '../../packages/client/src/cli/run';
import { FakeMirrorApi } from './support/fake-mirror-api';
import { sale } from './support/mirror-records';
import { tamper } from './support/mirror-targets';

const BASE_URL = 'https://fake';
/** OSC 52 (write the clipboard in some terminals), then erase the line and print over it. */
const HOSTILE = '\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2K\rall good \u009b31m';
const ESCAPED = '\\u001b]52;c;ZWNobyBwd25lZA==\\u0007\\u001b[2K\\u000dall good \\u009b31m';
/** Nothing a terminal acts on: no C0 control but tab and line feed, no DEL, no C1 control. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const INERT = /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$/;

/** A standard stream that captures what is written, a terminal or not. */
function captured(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function posRead(args: string[], fetch: typeof globalThis.fetch, tty = true) {
  const stdout = captured(tty);
  const stderr = captured(tty);
  const code = await run(['--base-url', BASE_URL, ...args], {
    env: { POS_READ_USERNAME: 'u', POS_READ_PASSWORD: 'p' },
    stdin: Readable.from([]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    client: { fetch },
  });
  return { code, out: stdout.text(), err: stderr.text() };
}

const token = () =>
  new Response(JSON.stringify({ token: 'fake', expiration: new Date(Date.now() + 3_600_000) }), {
    headers: { 'content-type': 'application/json' },
  });

/**
 * Issue 44, 6: what the server sends is printed by pos-read with every control character a
 * terminal would act on escaped: problem details, CSV to a terminal, verify's lines.
 */
describe('pos-read: server text never drives the terminal', () => {
  it("should escape the control characters of a problem's detail on standard error", async () => {
    const fetch: typeof globalThis.fetch = async (input) => {
      if ((input as string).endsWith('/Token')) return token();
      return new Response(
        JSON.stringify({ type: 'about:blank', title: 'Bad request', status: 400, detail: HOSTILE }),
        { status: 400, headers: { 'content-type': 'application/problem+json' } },
      );
    };
    const { code, err } = await posRead(['shops'], fetch);
    expect(code).toBe(7);
    expect(err).toMatch(INERT);
    expect(err).toContain(ESCAPED);
  });

  it('should escape the bidirectional controls (U+202E and its kind) as the other controls', async () => {
    const bidi =
      'invoice\u202egnp.exe \u2066x\u2069 \u200e\u200f\u061c\u202a\u202b\u202c\u202d\u2067\u2068';
    const fetch: typeof globalThis.fetch = async (input) => {
      if ((input as string).endsWith('/Token')) return token();
      return new Response(
        JSON.stringify({ type: 'about:blank', title: 'Bad request', status: 400, detail: bidi }),
        { status: 400, headers: { 'content-type': 'application/problem+json' } },
      );
    };
    const { code, err } = await posRead(['shops'], fetch);
    expect(code).toBe(7);
    expect(err).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(err).toContain(
      'invoice\\u202egnp.exe \\u2066x\\u2069 \\u200e\\u200f\\u061c\\u202a\\u202b\\u202c\\u202d\\u2067\\u2068',
    );
  });

  it('should escape the CSV of a report printed to a terminal, line ends shown as line feeds, and pass it byte for byte elsewhere', async () => {
    const csv = `id,description\r\n1,"${HOSTILE}"\r\n2,plain\r\n`;
    // Split inside the CRLF and inside a two-byte character: the escaping holds across chunks.
    const bytes = Buffer.from(csv, 'utf8');
    const cuts = [bytes.indexOf('\r\n2') + 1, bytes.indexOf(Buffer.from('\u009b', 'utf8')) + 1];
    const fetch: typeof globalThis.fetch = async (input) => {
      if ((input as string).endsWith('/Token')) return token();
      const parts = [
        bytes.subarray(0, cuts[1]),
        bytes.subarray(cuts[1], cuts[0]),
        bytes.subarray(cuts[0]),
      ];
      return new Response(Readable.toWeb(Readable.from(parts)) as ReadableStream, {
        headers: { 'content-type': 'text/csv; charset=utf-8' },
      });
    };
    const args = ['report', '--from', '2026-03-01', '--to', '2026-03-02', '--csv'];
    const terminal = await posRead(args, fetch);
    expect(terminal.code).toBe(0);
    expect(terminal.out).toBe(`id,description\n1,"${ESCAPED}"\n2,plain\n`);
    const piped = await posRead(args, fetch, false);
    expect(piped.out).toBe(csv);
  });

  it("should escape verify's lines, whose shop code is the server's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'terminal-text-'));
    try {
      const into = path.join(dir, 'copy.sqlite');
      const shop = `S1${HOSTILE}`;
      const api = new FakeMirrorApi();
      api.shops = [{ code: shop, name: 'One', timeZone: 'Europe/Madrid', currency: 'EUR' }];
      api.add('sales', {
        ...sale(1, `${new Date().toISOString().slice(0, 10)}T08:00:00`),
        shopCode: shop,
      });
      expect((await posRead(['mirror', '--into', into], api.fetch)).code).toBe(0);
      await tamper(into, "UPDATE sales SET total_gross = '0.01' WHERE id = 1");
      const { code, out } = await posRead(['verify', '--into', into], api.fetch);
      expect(code).toBe(8);
      expect(out).toMatch(INERT);
      expect(out).toContain(`sales S1${ESCAPED} `);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
