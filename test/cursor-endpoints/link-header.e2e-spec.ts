import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { RESOURCES, ROWS, type Resource, SYNCED_RESOURCES, TABLE, YEAR } from './resource-tables';

type Rec = { id: string } & Record<string, unknown>;
interface Body {
  data: Rec[];
  nextCursor: string | null;
  caughtUp?: boolean;
}

/** The target of a `Link: <…>; rel="next"` header, or null without one. */
function nextTarget(link: string | null): string | null {
  if (link === null) return null;
  const match = /^<([^>]*)>; rel="next"$/.exec(link);
  if (!match) throw new Error(`not a next link: ${link}`);
  return match[1];
}

describeEachDatabase(
  'Link header: the next page in a header, a year read through it alone',
  (ctx) => {
    let api: TestApp;
    let shops: string[];
    let token: string;

    beforeAll(async () => {
      const summary = await seedBusinessData(ctx.db.db, {
        seed: 29,
        shops: 3,
        days: 365,
        salesPerDay: 2,
        startDate: '2026-01-01',
      });
      shops = summary.shopCodes;
      token = forgeToken({ claims: { sub: 'linker', shop_code: [shops[0], shops[2]] } });
      api = await startTestApp(ctx.db);
    }, 120_000);
    afterAll(async () => {
      await api?.close();
    });

    /**
     * Reads pages from `first`, each next URL taken from the Link header alone (resolved against
     * the page's own URL, as RFC 8288 says), never from the body; checks that each Link carries the
     * body's cursor and no host, then returns every record and the pages' count.
     */
    async function readThroughLinks(first: string, headers: Record<string, string> = {}) {
      const records: Rec[] = [];
      let url: URL | null = new URL(first, api.baseUrl);
      let pages = 0;
      while (url !== null && pages < 1_000) {
        const res = await http<Body>(api.baseUrl, url.pathname + url.search, {
          headers: { ...bearer(token), ...headers },
        });
        expect(res.status).toBe(200);
        pages++;
        records.push(...res.body.data);
        const target = nextTarget(res.headers.get('link'));
        const hasNext =
          res.body.caughtUp === undefined ? res.body.nextCursor !== null : !res.body.caughtUp;
        expect(target !== null).toBe(hasNext);
        if (target !== null) {
          expect(target.startsWith('?')).toBe(true);
          expect(target).not.toContain(token);
          expect(new URLSearchParams(target.slice(1)).get('Cursor')).toBe(res.body.nextCursor);
        }
        url = target === null ? null : new URL(target, url);
      }
      return { records, pages };
    }

    async function storedIds(resource: Resource, order: 'time' | 'id'): Promise<string[]> {
      const [table, column] = TABLE[resource];
      const rows = await ctx.db.db.query<Array<{ id: string | number }>>(
        `SELECT id FROM ${table} WHERE shop_code IN (?, ?) AND ${ROWS[resource]} ORDER BY ${order === 'time' ? `${column}, id` : 'id'}`,
        [shops[0], shops[2]],
      );
      return rows.map((row) => String(row.id));
    }

    it.each(RESOURCES)(
      'should read a year of %s through Link alone, every record once',
      async (resource) => {
        const { records, pages } = await readThroughLinks(`/api/v1.0/${resource}?${YEAR}&Limit=97`);
        const expected = await storedIds(resource, 'time');
        expect(expected.length).toBeGreaterThan(1_000);
        expect(records.map((r) => r.id)).toEqual(expected);
        // The request's Limit is carried on: pages of 97.
        expect(pages).toBe(Math.ceil(expected.length / 97) + (expected.length % 97 === 0 ? 1 : 0));
      },
    );

    it.each(SYNCED_RESOURCES)(
      'should read the %s feed through Link alone until caught up',
      async (resource) => {
        const { records } = await readThroughLinks(`/api/v1.0/${resource}/feed?limit=250`);
        expect(records.map((r) => r.id)).toEqual(await storedIds(resource, 'id'));
      },
    );

    it('should write no Link on a last page, and never a host from the Host header', async () => {
      const last = await http<Body>(api.baseUrl, `/api/v1.0/sales?${YEAR}&ShopCode=${shops[1]}`, {
        headers: bearer(token),
      });
      // A shop outside the claims: an empty last page.
      expect(last.body.nextCursor).toBeNull();
      expect(last.headers.get('link')).toBeNull();
      const spoofed = await http<Body>(api.baseUrl, `/api/v1.0/payments?${YEAR}&Limit=5`, {
        headers: {
          ...bearer(token),
          host: 'attacker.example',
          'x-forwarded-host': 'attacker.example',
        },
      });
      expect(spoofed.status).toBe(200);
      const link = spoofed.headers.get('link') ?? '';
      expect(link).toBe(
        `<?Cursor=${encodeURIComponent(spoofed.body.nextCursor ?? '')}&Limit=5>; rel="next"`,
      );
      expect(link).not.toContain('attacker');
    });

    it('should write no Link on an error answer', async () => {
      const refused = await http(api.baseUrl, '/api/v1.0/sales?Cursor=forged', {
        headers: bearer(token),
      });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('link')).toBeNull();
    });
  },
);
