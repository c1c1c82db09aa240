import {
  digestFields,
  digestRecord,
  NEWEST_DIGEST_VERSION,
} from '../../../packages/client/src/mirror/digest-versions';
import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import type { Json } from '../../../packages/client/src/mirror/jcs';

type ApiRecord = Record<string, Json>;
const DAY_FIELD: Record<string, string> = {
  sales: 'soldAt',
  payments: 'paidAt',
  'cash-movements': 'movedAt',
  'cash-drawer-sessions': 'openedAt',
};

/**
 * The published day checksum (docs/sync.md) by the service's JCS (`json-canonicalize`), not the
 * client's: what the mirror computes is compared with an independent implementation.
 */
export function serverChecksum(records: ApiRecord[]): string {
  const hash = createHash('sha256');
  const byId = [...records].sort((a, b) => Number(a.id) - Number(b.id));
  for (const record of byId) hash.update(canonicalize(record) + '\n', 'utf8');
  return hash.digest('hex');
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/**
 * The mirror's part of the contract (feeds, digests, lists, shops, the token) as a fetch over
 * records in memory, for the mirror's logic before the real routes land; the acceptance specs
 * run against the real service. A feed's cursor is the last id delivered, a list's the offset of
 * its next page; `Wait` is not held.
 */
export class FakeMirrorApi {
  readonly records: Record<string, ApiRecord[]> = {
    sales: [],
    payments: [],
    'cash-movements': [],
    'cash-drawer-sessions': [],
  };
  readonly paths: string[] = [];
  shops = [{ code: 'S1', name: 'One', timeZone: 'Europe/Madrid', currency: 'EUR' }];

  add(resource: string, record: ApiRecord): void {
    this.records[resource].push(record);
  }

  /** Every record of each resource, in id order (what a full copy holds). */
  byId(): Record<string, ApiRecord[]> {
    return Object.fromEntries(
      Object.entries(this.records).map(([resource, records]) => [
        resource,
        [...records].sort((a, b) => Number(a.id) - Number(b.id)),
      ]),
    );
  }

  private of(resource: string, shop: string | null) {
    return this.records[resource]
      .filter((r) => shop === null || r.shopCode === shop)
      .sort((a, b) => Number(a.id) - Number(b.id));
  }

  private inOrder(resource: string, records: ApiRecord[]): ApiRecord[] {
    return [...records].sort((a, b) => {
      const [x, y] = [a[DAY_FIELD[resource]] as string, b[DAY_FIELD[resource]] as string];
      return x < y ? -1 : x > y ? 1 : Number(a.id) - Number(b.id);
    });
  }

  /**
   * A bulk read: the shop's records of [From, To) by the day field's time then id, a checkpoint
   * every 1,000 (its cursor `shop|from|to|offset`), the feed's cursor at its last id.
   */
  private bulk(resource: string, q: URLSearchParams): Response {
    const [shop, from, to, offset] = q.has('Cursor')
      ? (q.get('Cursor') as string).split('|')
      : [q.get('ShopCode') ?? '', q.get('From') ?? '', q.get('To') ?? '', '0'];
    const time = (r: ApiRecord) => r[DAY_FIELD[resource]] as string;
    const records = this.inOrder(
      resource,
      this.of(resource, shop).filter((r) => time(r) >= from && time(r) < to),
    ).slice(Number(offset));
    const last = (this.of(resource, shop).at(-1)?.id as string | undefined) ?? '0';
    const feedCursor =
      resource === 'cash-drawer-sessions' || q.has('Cursor') ? null : `${shop}:${last}`;
    const start = { resource, shopCode: shop, from, to, feedCursor };
    const checkpoint = (n: number) =>
      n % 1000 === 0 ? `${shop}|${from}|${to}|${Number(offset) + n}` : null;
    return new Response(bulkText(start, records, checkpoint), {
      headers: { 'content-type': 'application/x-ndjson' },
    });
  }

  readonly fetch: typeof fetch = async (input) => {
    const url = new URL(input);
    this.paths.push(url.pathname + url.search);
    const q = url.searchParams;
    const path = url.pathname.replace('/api/v1.0/', '');
    if (path === 'Token') {
      return json({ token: 'fake', expiration: new Date(Date.now() + 3_600_000).toISOString() });
    }
    if (path === 'shops') return json({ data: this.shops });
    const [resource, kind] = path.split('/');
    // BusinessDateFrom/To instead of From/To: the days are those of `businessDate`.
    const byBusinessDate = q.has('BusinessDateFrom');
    const day = (r: ApiRecord) =>
      byBusinessDate ? (r.businessDate as string) : (r[DAY_FIELD[resource]] as string).slice(0, 10);
    if (kind === 'feed') {
      const [shop, after] = (q.get('Cursor') ?? `${q.get('ShopCode') ?? ''}:0`).split(':');
      const limit = Number(q.get('Limit') ?? 500);
      const rest = this.of(resource, shop || null).filter((r) => Number(r.id) > Number(after));
      const data = rest.slice(0, limit);
      const last = (data.at(-1)?.id as string | undefined) ?? after;
      return json({ data, nextCursor: `${shop}:${last}`, caughtUp: rest.length <= limit });
    }
    if (kind === 'bulk') return this.bulk(resource, q);
    const shop = q.get('ShopCode');
    const from = q.get(byBusinessDate ? 'BusinessDateFrom' : 'From') ?? '0000';
    const to = q.get(byBusinessDate ? 'BusinessDateTo' : 'To') ?? '9999';
    const inRange = this.of(resource, shop).filter((r) => day(r) >= from && day(r) < to);
    if (kind === 'digest') {
      if (Date.parse(to) - Date.parse(from) > 92 * 86_400_000) {
        return json({ title: 'Bad Request', status: 400, detail: 'To: at most 92 days' }, 400);
      }
      // A version's checksum covers that version's fields only (docs/sync.md, "Digest versions").
      const version = Number(q.get('Version') ?? NEWEST_DIGEST_VERSION);
      const fields = digestFields(resource, version);
      const data = [];
      for (let d = from; d < to; d = nextDay(d)) {
        const records = inRange.filter((r) => day(r) === d).map((r) => digestRecord(r, fields));
        data.push({ date: d, count: records.length, checksum: serverChecksum(records) });
      }
      return json({ version, data });
    }
    // A list: by its day field's time then id, Limit a page, the cursor the offset of the next.
    const ordered = this.inOrder(resource, inRange);
    const offset = Number(q.get('Cursor') ?? 0);
    const end = offset + Number(q.get('Limit') ?? 500);
    return json({
      data: ordered.slice(offset, end),
      nextCursor: end < ordered.length ? String(end) : null,
    });
  };
}

/** The lines of a bulk read (docs/sync.md, "The bulk read"), as NDJSON text. */
function bulkText(start: object, records: ApiRecord[], checkpoint: (n: number) => string | null) {
  const hash = createHash('sha256');
  let text = `${JSON.stringify({ type: 'start', ...start })}\n`;
  records.forEach((record, i) => {
    const line = `${JSON.stringify({ type: 'record', record })}\n`;
    hash.update(line);
    text += line;
    const cursor = checkpoint(i + 1);
    if (cursor) text += `${JSON.stringify({ type: 'checkpoint', count: i + 1, cursor })}\n`;
  });
  const end = { type: 'end', count: records.length, checksum: `sha256:${hash.digest('hex')}` };
  return `${text}${JSON.stringify(end)}\n`;
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
