import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { AppConfig } from '../../config/app-config';

/** zstd's part of node:zlib (Node 22.15+), which the Node 20 type definitions do not declare. */
interface ZstdZlib {
  createZstdCompress?: (options: { params: Record<number, number> }) => Transform;
  zstdCompressSync?: (
    buffer: zlib.InputType,
    options: { params: Record<number, number> },
  ) => Buffer;
  constants: { ZSTD_c_compressionLevel?: number };
}
const nodeZlib = zlib as unknown as ZstdZlib;

/**
 * Responses smaller than this go out as they are: problem bodies, the token, a short page. Below
 * about a kilobyte the encoding's framing and the CPU cost outweigh the bytes saved.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Levels chosen for throughput on a busy two-core machine, not for the last byte (measured on a
 * page of 500 sales, docs/performance.md "Compression"): gzip 3 costs what gzip 1 does and
 * writes a tenth of the page (level 4 costs half as much again, 6 three times as much); brotli 1
 * is cheaper than gzip 3 and smaller; zstd's default level 3 is the fastest of the three.
 */
export const GZIP_LEVEL = 3;
export const BROTLI_QUALITY = 1;
export const ZSTD_LEVEL = 3;

/** Node has zstd natively from 22.15 / 23.8; on older versions it is not offered. */
export function zstdAvailable(): boolean {
  return typeof nodeZlib.createZstdCompress === 'function';
}

/**
 * The encodings the service speaks, in its order of preference when a client accepts several at
 * the same q-value: the cheapest to produce for a given size first. `identity` is always there,
 * so a client that accepts nothing else (or sends no Accept-Encoding) gets the plain body.
 */
export function responseEncodings(): Array<'zstd' | 'br' | 'gzip' | 'identity'> {
  return zstdAvailable() ? ['zstd', 'br', 'gzip', 'identity'] : ['br', 'gzip', 'identity'];
}

/** JSON (also problem+json), CSV, and the portal's HTML, JavaScript and CSS. */
const COMPRESSIBLE =
  /^(?:application\/(?:[\w.+-]*\+)?json|text\/[\w.+-]+|application\/javascript)\b/i;

function compressibleType(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && COMPRESSIBLE.test(type);
}

/** `accept-encoding` spelled as @fastify/compress spells it, so it is never listed twice. */
const VARY_TOKEN = 'accept-encoding';

/**
 * A compressible response varies with Accept-Encoding even when it goes out uncompressed (too
 * small, or the client accepts no encoding): a shared cache must not hand it to another client.
 */
function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const values = (Array.isArray(current) ? current : current === undefined ? [] : [current]).map(
    String,
  );
  if (values.some((value) => value.toLowerCase().includes(VARY_TOKEN))) return;
  reply.header('Vary', [...values, VARY_TOKEN].join(', '));
}

/** @fastify/compress options for the API port: responses only, no request decompression. */
export function compressionOptions(): FastifyCompressOptions {
  return {
    global: true,
    // Requests are never decompressed: the only body is the token's (a few hundred bytes, 16 KiB
    // at most), and inflating client input would only add a way to spend the server's memory.
    globalDecompression: false,
    encodings: responseEncodings(),
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
    zlibOptions: { level: GZIP_LEVEL },
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlib: zstdOptions(),
  };
}

/**
 * The plugin passes `zlibOptions` (a gzip level) to zstd too; zstd's level is a parameter of its
 * own, so its constructors are wrapped to set it.
 */
function zstdOptions(): FastifyCompressOptions['zlib'] {
  const { createZstdCompress, zstdCompressSync, constants } = nodeZlib;
  if (!createZstdCompress || !zstdCompressSync || constants.ZSTD_c_compressionLevel === undefined) {
    return undefined;
  }
  const params = { [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL };
  return {
    createZstdCompress: () => createZstdCompress({ params }),
    zstdCompressSync: (buffer: zlib.InputType) => zstdCompressSync(buffer, { params }),
  };
}

/**
 * Negotiated compression of every JSON and CSV response (COMPRESSION=on, the default): zstd where
 * Node has it, br, gzip, with q-values; identity when nothing else is acceptable. Streams (the
 * report) stay streams: the encoder sits in a pipeline, so backpressure reaches the database reads.
 * Must run before any route is added, so the plugin's hook sees every route.
 */
export async function registerCompression(
  app: NestFastifyApplication,
  config: AppConfig,
): Promise<void> {
  if (!config.COMPRESSION) return;
  await app.register(fastifyCompress, compressionOptions());
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (_request, reply) => {
      if (compressibleType(reply)) varyOnAcceptEncoding(reply);
    });
}
