import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { NEXT_PAGE_LINK_CONFIG, writeNextPageLinks } from './next-page-link';
import { compressResponses } from './compression';
import { HEADERS_FIRST_MIN_RECORDS, sendLinkedPagesHeadersFirst } from './headers-first';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Were the answer's headers on the socket when its body was serialised? */
  headersSentAtSerialisation: boolean | undefined;
}

describe('sendLinkedPagesHeadersFirst', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  let headersSentAtSerialisation: boolean | undefined;

  /** A page of `records` records, and its cursor (null: the last page). */
  function page(records: number, nextCursor: string | null) {
    return {
      data: Array.from({ length: records }, (_, i) => ({
        id: String(i),
        note: 'a record of the page, long enough to be worth compressing',
      })),
      nextCursor,
    };
  }

  beforeAll(async () => {
    app = Fastify();
    compressResponses(app);
    writeNextPageLinks(app);
    sendLinkedPagesHeadersFirst(app);
    app.get<{ Querystring: { records: string; last?: string } }>(
      '/page',
      { config: NEXT_PAGE_LINK_CONFIG },
      (req, reply) => {
        const body = page(Number(req.query.records), req.query.last ? null : 'next-cursor');
        // The envelope's toJSON runs when the body is serialised, wherever that happens.
        Object.defineProperty(body, 'toJSON', {
          enumerable: false,
          value() {
            headersSentAtSerialisation = reply.raw.headersSent;
            const { data, nextCursor } = body;
            return { data, nextCursor };
          },
        });
        return body;
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
  });

  function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    headersSentAtSerialisation = undefined;
    return new Promise((resolve, reject) => {
      const req = request(`${baseUrl}${path}`, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            headersSentAtSerialisation,
          }),
        );
        res.on('error', reject);
      });
      req.once('error', reject);
      req.end();
    });
  }

  const expectedBody = (records: number, nextCursor: string | null): string =>
    JSON.stringify(page(records, nextCursor));

  it('should send the headers of a compressed page with a next page before serialising its body', async () => {
    const answer = await get(`/page?records=${HEADERS_FIRST_MIN_RECORDS}`, {
      'Accept-Encoding': 'gzip',
    });
    expect(answer.status).toBe(200);
    expect(answer.headersSentAtSerialisation).toBe(true);
    expect(answer.headers.link).toBe('<?Cursor=next-cursor>; rel="next"');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.headers['content-length']).toBeUndefined();
    expect(gunzipSync(answer.body).toString()).toBe(
      expectedBody(HEADERS_FIRST_MIN_RECORDS, 'next-cursor'),
    );
  });

  it.each([
    ['no encoding is accepted', `records=${HEADERS_FIRST_MIN_RECORDS}`, {}],
    [
      'only identity is accepted',
      `records=${HEADERS_FIRST_MIN_RECORDS}`,
      { 'Accept-Encoding': 'identity' },
    ],
    [
      'the page is the last',
      `records=${HEADERS_FIRST_MIN_RECORDS}&last=1`,
      { 'Accept-Encoding': 'gzip' },
    ],
    [
      'the page holds too few records',
      `records=${HEADERS_FIRST_MIN_RECORDS - 1}`,
      { 'Accept-Encoding': 'gzip' },
    ],
  ])(
    'should send the headers with the finished body, with its Content-Length, when %s',
    async (_case, query, headers: Record<string, string>) => {
      const answer = await get(`/page?${query}`, headers);
      expect(answer.status).toBe(200);
      expect(answer.headersSentAtSerialisation).toBe(false);
      expect(answer.headers['transfer-encoding']).toBeUndefined();
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    },
  );

  it('should decode to the bytes the buffered answer carries', async () => {
    const records = HEADERS_FIRST_MIN_RECORDS * 4;
    const [streamed, buffered] = await Promise.all([
      get(`/page?records=${records}`, { 'Accept-Encoding': 'gzip' }),
      get(`/page?records=${records}`),
    ]);
    expect(streamed.headers['transfer-encoding']).toBe('chunked');
    expect(gunzipSync(streamed.body).equals(buffered.body)).toBe(true);
  });
});
