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

/** Records serialised per turn of the event loop: about a tenth of a page of 500 sales. */
export const RECORDS_PER_SLICE = 50;

/**
 * The JSON of `value` as the member `key` of an object (what JSON.stringify writes after
 * `"key":`, its toJSON called with that key), or undefined when it serialises to nothing.
 */
function memberText(key: string, value: unknown): string | undefined {
  const text = JSON.stringify({ [key]: value });
  return text === '{}' ? undefined : text.slice(JSON.stringify(key).length + 2, -1);
}

/** The JSON of element `index` of an array, as JSON.stringify writes it inside the array. */
function elementText(index: number, value: unknown): string {
  const text =
    typeof (value as { toJSON?: unknown } | null)?.toJSON === 'function'
      ? memberText(String(index), value)
      : (JSON.stringify(value) as string | undefined);
  return text ?? 'null';
}

/**
 * The JSON of an envelope `{ …, data: [records], … }` as three parts: the text before the
 * records, each record's text, the text after; their concatenation (records joined by commas) is
 * `JSON.stringify(envelope)`, built as the specification builds an object: `toJSON` first, then
 * each own enumerable string key in order, a key whose value serialises to nothing left out, an
 * array element that serialises to nothing written `null`. Null when the value is not such an
 * envelope: it is then serialised whole.
 */
function envelopeParts(
  value: unknown,
): { before: string; records: readonly unknown[]; after: string } | null {
  const json = (value as { toJSON?: unknown } | null)?.toJSON;
  const envelope: unknown =
    typeof json === 'function' ? (json as (key: string) => unknown).call(value, '') : value;
  if (
    typeof envelope !== 'object' ||
    envelope === null ||
    Array.isArray(envelope) ||
    envelope instanceof Number ||
    envelope instanceof String ||
    envelope instanceof Boolean
  ) {
    return null;
  }
  const fields = envelope as Record<string, unknown>;
  if (!Object.keys(fields).includes('data') || !Array.isArray(fields.data)) return null;
  const before: string[] = [];
  const after: string[] = [];
  let seen = false;
  for (const key of Object.keys(fields)) {
    if (key === 'data') {
      seen = true;
      continue;
    }
    const text = memberText(key, fields[key]);
    if (text !== undefined) (seen ? after : before).push(`${JSON.stringify(key)}:${text}`);
  }
  return {
    before: `{${before.map((field) => `${field},`).join('')}"data":[`,
    records: fields.data,
    after: `]${after.map((field) => `,${field}`).join('')}}`,
  };
}

/**
 * A page's body, serialised by `serialise`, which the response's `pipe` event calls right after
 * flushing the headers; reading it before then gives nothing yet. `JSON.stringify` is what Fastify
 * runs for these routes (they declare no response schema), so the bytes are the ones the buffered
 * answer would have carried. The records are serialised RECORDS_PER_SLICE at a time with a turn
 * of the event loop between slices, so that a request that arrives meanwhile (the next page's,
 * asked for on this page's Link header) is read and its query sent before the rest of this body
 * is made (decision 29.18).
 */
class SerialisedOnPipe extends Readable {
  private pending: { value: unknown } | null;

  constructor(value: unknown) {
    super();
    this.pending = { value };
  }

  /** Starts serialising the page, once. */
  serialise(): void {
    const pending = this.pending;
    if (pending === null || this.destroyed) return;
    this.pending = null;
    try {
      const parts = envelopeParts(pending.value);
      if (parts === null) {
        this.push(Buffer.from(JSON.stringify(pending.value)));
        this.push(null);
        return;
      }
      this.slice(parts, 0);
    } catch (error) {
      this.destroy(error as Error);
    }
  }

  private slice(
    parts: { before: string; records: readonly unknown[]; after: string },
    from: number,
  ): void {
    if (this.destroyed) return;
    try {
      const to = Math.min(from + RECORDS_PER_SLICE, parts.records.length);
      let text = from === 0 ? parts.before : ',';
      for (let i = from; i < to; i++) {
        if (i > from) text += ',';
        text += elementText(i, parts.records[i]);
      }
      if (to === parts.records.length) {
        this.push(Buffer.from(text + parts.after));
        this.push(null);
        return;
      }
      this.push(Buffer.from(text));
      setImmediate(() => this.slice(parts, to));
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
