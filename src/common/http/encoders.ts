import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

export type Encoding = 'zstd' | 'br' | 'gzip';

/**
 * Levels chosen for throughput on a busy two-core machine, not for the last byte (measured on a
 * page of 500 sales, decision 71 and docs/performance.md "Compression"): gzip 3 costs what gzip 1
 * does and writes a tenth of the page (level 4 costs half as much again, 6 three times as much);
 * brotli 1 is cheaper than gzip 3 and smaller; zstd's default level 3 is its usual fast setting.
 */
export const GZIP_LEVEL = 3;
export const BROTLI_QUALITY = 1;
export const ZSTD_LEVEL = 3;

type Callback = (error: Error | null, result: Buffer) => void;
type ZstdOptions = { params: Record<number, number> };

/** zstd's part of node:zlib (Node 22.15+ / 23.8+), which the Node 20 type definitions lack. */
interface ZstdZlib {
  createZstdCompress?: (options: ZstdOptions) => Transform;
  zstdCompress?: (input: Buffer, options: ZstdOptions, callback: Callback) => void;
  constants: { ZSTD_c_compressionLevel?: number };
}
const zstd = zlib as unknown as ZstdZlib;

/** Node has zstd natively from 22.15 / 23.8; on older versions it is not offered. */
export function zstdAvailable(): boolean {
  return (
    typeof zstd.createZstdCompress === 'function' &&
    typeof zstd.zstdCompress === 'function' &&
    zstd.constants.ZSTD_c_compressionLevel !== undefined
  );
}

const gzipOptions: zlib.ZlibOptions = { level: GZIP_LEVEL };
const brotliOptions: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
};
const zstdOptions = (): ZstdOptions => ({
  params: { [zstd.constants.ZSTD_c_compressionLevel as number]: ZSTD_LEVEL },
});

/** An encoder stream (for a streamed body): a zlib Transform, with its backpressure. */
export function streamEncoder(encoding: Encoding): Transform {
  switch (encoding) {
    case 'gzip':
      return zlib.createGzip(gzipOptions);
    case 'br':
      return zlib.createBrotliCompress(brotliOptions);
    case 'zstd':
      return (zstd.createZstdCompress as NonNullable<ZstdZlib['createZstdCompress']>)(
        zstdOptions(),
      );
  }
}

/** One-shot encoders for buffered bodies, run on libuv's thread pool (callback style). */
export function bufferEncoders(): Record<Encoding, (input: Buffer, callback: Callback) => void> {
  return {
    gzip: (input, callback) => zlib.gzip(input, gzipOptions, callback),
    br: (input, callback) => zlib.brotliCompress(input, brotliOptions, callback),
    zstd: (input, callback) => {
      if (!zstd.zstdCompress) throw new Error('zstd is not available on this Node');
      zstd.zstdCompress(input, zstdOptions(), callback);
    },
  };
}
