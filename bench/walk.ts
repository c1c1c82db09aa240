export interface WalkResult {
  pages: number;
  records: number;
  seconds: number;
  recordsPerSecond: number;
  /** Last record id of the walk: two walks of the same keyset must end on the same one. */
  lastId: string | null;
}

interface PageBody {
  data: Array<{ id: string }>;
  nextCursor: string | null;
}

/**
 * Reads a whole query page after page through nextCursor, as an integrator pulling a year does:
 * one request at a time, each one's cursor taken from the page before.
 */
export async function walk(
  baseUrl: string,
  path: string,
  query: Record<string, string>,
  token: string,
): Promise<WalkResult> {
  // identity: the service compresses for clients that ask (bench/compression.ts measures that).
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' };
  const started = process.hrtime.bigint();
  let url = `${baseUrl}${path}?${new URLSearchParams(query).toString()}`;
  let pages = 0;
  let records = 0;
  let lastId: string | null = null;
  for (;;) {
    const response = await fetch(url, { headers });
    const text = await response.text();
    if (response.status !== 200) {
      throw new Error(`walk: ${url} answered ${response.status}: ${text.slice(0, 300)}`);
    }
    const page = JSON.parse(text) as PageBody;
    pages++;
    records += page.data.length;
    if (page.data.length > 0) lastId = page.data[page.data.length - 1].id;
    if (page.nextCursor === null) break;
    url = `${baseUrl}${path}?Cursor=${encodeURIComponent(page.nextCursor)}`;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { pages, records, seconds, recordsPerSecond: records / seconds, lastId };
}
