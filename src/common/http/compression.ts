import { negotiate } from '@fastify/accept-negotiator';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { AppConfig } from '../../config/app-config';
import { bufferEncoders, Encoding, streamEncoder, zstdAvailable } from './encoders';

/**
 * Responses smaller than this go out as they are: problem bodies, the token, a short page. Below
 * about a kilobyte the encoding's framing and the CPU cost outweigh the bytes saved.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The encodings the service speaks, in its order of preference when a client accepts several at
 * the same q-value: the cheapest to produce for a given size first. `identity` is listed so that
 * a client asking for it by name gets it; anything unacceptable also ends in the plain body.
 */
function responseEncodings(): Array<Encoding | 'identity'> {
  return zstdAvailable() ? ['zstd', 'br', 'gzip', 'identity'] : ['br', 'gzip', 'identity'];
}

/** JSON (also problem+json), NDJSON (the bulk reads), CSV, and the portal's HTML, JavaScript and CSS. */
const COMPRESSIBLE =
  /^(?:application\/(?:[\w.+-]*\+)?json|application\/x-ndjson|text\/[\w.+-]+|application\/javascript)(?:;|$)/i;

function compressible(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && COMPRESSIBLE.test(type);
}

/** What Accept-Encoding asks for, q-values honoured; null: the plain body. */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  offered: Array<Encoding | 'identity'> = responseEncodings(),
): Encoding | null {
  if (!acceptEncoding) return null;
  const chosen = negotiate(acceptEncoding.toLowerCase(), offered);
  return chosen === null || chosen === 'identity' ? null : chosen;
}

/**
 * A compressible response varies with Accept-Encoding even when it goes out uncompressed (too
 * small, or the client accepts no encoding): a shared cache must not hand it to another client.
 */
function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const values = (Array.isArray(current) ? current : current === undefined ? [] : [current]).map(
    String,
  );
  if (values.some((value) => /accept-encoding/i.test(value))) return;
  reply.header('Vary', [...values, 'Accept-Encoding'].join(', '));
}

/**
 * The body piped through an encoder stream: the encoder's backpressure reaches the source (the
 * report's database reads). An error of the source destroys the encoder, and Fastify then resets
 * the connection, so a cut body never looks complete.
 */
export function encodedStream(source: Readable, encoding: Encoding): Readable {
  return pipeline(source, streamEncoder(encoding), () => undefined);
}

const isStream = (payload: unknown): payload is Readable =>
  typeof (payload as Readable | null)?.pipe === 'function';

const compressBuffer = Object.fromEntries(
  Object.entries(bufferEncoders()).map(([encoding, encode]) => [encoding, promisify(encode)]),
) as Record<Encoding, (input: Buffer) => Promise<Buffer>>;

/**
 * The onSend step: a buffered body (a page, a problem, the document) is compressed in one go on
 * libuv's thread pool and gets its Content-Length; a stream (the report) is piped through an
 * encoder stream, whose backpressure reaches the report's database reads.
 */
async function compressPayload(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (payload === null || payload === undefined || !compressible(reply)) return payload;
  varyOnAcceptEncoding(reply);
  if (reply.hasHeader('content-encoding') || reply.statusCode === 206) return payload;
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (!encoding) return payload;
  if (isStream(payload)) {
    reply.header('Content-Encoding', encoding).removeHeader('content-length');
    return encodedStream(payload, encoding);
  }
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const plain = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (plain.length < COMPRESSION_THRESHOLD_BYTES) return payload;
  const encoded = await compressBuffer[encoding](plain);
  reply.header('Content-Encoding', encoding).header('Content-Length', encoded.length);
  return encoded;
}

/**
 * Negotiated compression of every JSON and CSV response of the API port (COMPRESSION=on, the
 * default): zstd where Node has it, br, gzip, with q-values; identity when nothing else is
 * acceptable. Node's zlib does the encoding (decision 70 says why not @fastify/compress).
 */
export function registerCompression(app: NestFastifyApplication, config: AppConfig): void {
  if (!config.COMPRESSION) return;
  compressResponses(app.getHttpAdapter().getInstance());
}

/** The onSend hook of registerCompression, on a Fastify instance. */
export function compressResponses(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload) => compressPayload(request, reply, payload));
}
