import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { chooseEncoding } from './compression';

/**
 * The fewest records a page must hold for its headers to leave before its body. A page of 16
 * records of any kind is over 1 KiB of JSON (the compression e2e spec checks the smallest such page
 * of every list and feed), so it is past the compression threshold and would have been compressed
 * anyway: the only change to its answer is the framing (chunked instead of a Content-Length),
 * which a compressed stream already has.
 */
export const HEADERS_FIRST_MIN_RECORDS = 16;

function recordsOf(payload: unknown): number {
  const data = (payload as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data.length : 0;
}

/**
 * A page's body, serialised by `serialise`, which the response's `pipe` event calls right after
 * flushing the headers; reading it before then gives nothing yet. `JSON.stringify` is what Fastify
 * runs for these routes (they declare no response schema), so the bytes are the ones the buffered
 * answer would have carried.
 */
class SerialisedOnPipe extends Readable {
  private pending: { value: unknown } | null;

  constructor(value: unknown) {
    super();
    this.pending = { value };
  }

  /** Serialises the page now, once. */
  serialise(): void {
    const pending = this.pending;
    if (pending === null || this.destroyed) return;
    this.pending = null;
    try {
      this.push(Buffer.from(JSON.stringify(pending.value)));
      this.push(null);
    } catch (error) {
      this.destroy(error as Error);
    }
  }

  override _read(): void {
    // The body comes from serialise(), not from being read.
  }
}

function sendsHeadersFirst(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): boolean {
  return (
    request.method === 'GET' &&
    reply.statusCode === 200 &&
    reply.hasHeader('link') &&
    recordsOf(payload) >= HEADERS_FIRST_MIN_RECORDS &&
    chooseEncoding(request.headers['accept-encoding']) !== null
  );
}

/**
 * A full page that has a next one, asked for compressed, sends its headers (and with them `Link`)
 * as soon as the page is read and mapped, before its body is serialised and compressed (decision
 * 29.15): a client walking with prefetch asks for the next page while this one's body is still
 * being made, so the next page's database read overlaps this page's serialisation, compression and
 * transfer. Registered after writeNextPageLinks, whose `Link` header it looks for, and only with
 * COMPRESSION on (a plain answer keeps its Content-Length).
 *
 * How: the page goes on as a stream whose JSON is not written yet; the compression hook pipes it
 * through the encoder as it does the report, Fastify sets the headers and pipes the encoder into
 * the response, and the response's 'pipe' event flushes the headers at once (instead of with the
 * first compressed bytes), then serialises the page. Everything that can refuse the request
 * (validation, scope, the database, the mapping) has run by then; what is left, `JSON.stringify`
 * of mapped records and the encoder, cannot fail on them, and a failure of the connection cuts the
 * stream as it cuts any compressed answer.
 */
export function sendLinkedPagesHeadersFirst(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    if (sendsHeadersFirst(request, reply, payload)) {
      // Fastify's serialiser slot may return a stream: it becomes the payload of the onSend hooks.
      const body = new SerialisedOnPipe(payload);
      reply.serializer(() => body as unknown as string);
      reply.raw.once('pipe', () => {
        reply.raw.flushHeaders();
        body.serialise();
      });
    }
    done(null, payload);
  });
}
