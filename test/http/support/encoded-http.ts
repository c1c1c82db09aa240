import { request } from 'node:http';
import zlib from 'node:zlib';

/** A response as it came over the wire: the body's bytes, not decoded. */
export interface WireResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A request with node:http, which (unlike fetch) neither sends Accept-Encoding on its own nor
 * decodes the body: what the test sends is all the server sees, what it gets is what was sent.
 */
export function wireRequest(
  url: string,
  headers: Record<string, string> = {},
  init: { method?: string; body?: string } = {},
): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.once('error', reject);
    req.end(init.body);
  });
}

/** zlib.zstdDecompressSync where Node has it (22.15+), else undefined. */
const zstdDecompressSync = (zlib as unknown as { zstdDecompressSync?: (buffer: Buffer) => Buffer })
  .zstdDecompressSync;

/** The body decoded as its Content-Encoding says (none: as it is). */
export function decodedBody(response: WireResponse): Buffer {
  const encoding = response.headers['content-encoding'];
  switch (encoding) {
    case undefined:
      return response.body;
    case 'gzip':
      return zlib.gunzipSync(response.body);
    case 'br':
      return zlib.brotliDecompressSync(response.body);
    case 'zstd':
      if (!zstdDecompressSync) throw new Error('zstd answered, but this Node cannot decode it');
      return zstdDecompressSync(response.body);
    default:
      throw new Error(`unexpected Content-Encoding ${String(encoding)}`);
  }
}

/** Does this Node have zstd natively (22.15+ / 23.8+)? */
export const NODE_HAS_ZSTD = typeof zstdDecompressSync === 'function';
