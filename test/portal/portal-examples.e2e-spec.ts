import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_USERS } from '../../tools/seed/demo-data';
import { bearer, getToken, http } from '../support/http';
import { chromium, requires } from '../support/requirements';
import { useDemoAsNpmStart } from '../support/demo-process';
import { openPortalBrowser, PortalBrowser, runListSales } from './portal-browser';

jest.setTimeout(300_000);

interface Parameter {
  name: string;
  in: string;
  example?: string | number;
  schema?: { example?: string | number };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  security?: unknown[];
}

const DOCUMENT = JSON.parse(
  readFileSync(path.join(__dirname, '../../docs/openapi.json'), 'utf8'),
) as { paths: Record<string, { get?: Operation }> };

/** Every GET operation of the document with the query its parameters' examples make. */
const EXAMPLES = Object.entries(DOCUMENT.paths).flatMap(([route, { get }]) => {
  if (!get) return [];
  const query = new URLSearchParams();
  for (const parameter of get.parameters ?? []) {
    const example = parameter.example ?? parameter.schema?.example;
    if (parameter.in === 'query' && example !== undefined && example !== '')
      query.set(parameter.name, String(example));
  }
  return [{ operationId: get.operationId, url: `${route}?${query.toString()}` }];
});

const demoUser = DEMO_USERS.find((user) => user.roles.includes('ApiUser') && user.enabled)!;

/**
 * The records of an answer: a JSON answer's first array (data, rows...), or the record lines of
 * a bulk read's NDJSON stream.
 */
const recordsOf = (res: { headers: Headers; body: unknown; text: string }): unknown[] => {
  if (res.headers.get('content-type')?.startsWith('application/x-ndjson'))
    return res.text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string })
      .filter((line) => line.type === 'record');
  const body = res.body as Record<string, unknown>;
  return (Object.values(body).find((value) => Array.isArray(value)) as unknown[] | undefined) ?? [];
};

describe('The documented examples show data on the demo, as npm start serves it, whatever the day (issue 22)', () => {
  const demo = useDemoAsNpmStart();
  let browser: PortalBrowser | undefined;
  afterAll(async () => {
    await browser?.close();
  });
  const baseUrl = (): string => demo().baseUrl;

  it('should have GET operations whose parameters carry examples', () => {
    expect(EXAMPLES.length).toBeGreaterThan(5);
    expect(EXAMPLES.find((e) => e.operationId === 'listSales')?.url).toMatch(/From=.*To=/);
  });

  it.each(EXAMPLES.map((e) => [e.operationId, e.url]))(
    'should answer %s with its examples (%s) with records for the demo user',
    async (_operationId, url) => {
      const token = await getToken(baseUrl(), demoUser.username, demoUser.password);
      const res = await http(baseUrl(), url, { headers: bearer(token) });
      expect(res.status).toBe(200);
      expect(recordsOf(res).length).toBeGreaterThan(0);
    },
  );

  requires(chromium).it(
    'should show records after "Try it out" and "Execute" on GET sales with the prefilled examples, signed in as the demo user',
    async () => {
      browser = await openPortalBrowser(baseUrl());
      const { page } = browser;
      await page.goto(`${baseUrl()}/docs`);
      await page.locator('#operations-Sales-listSales').waitFor();
      await page.fill('#test-token-username', demoUser.username);
      await page.fill('#test-token-password', demoUser.password);
      await page.click('#test-token-submit');
      await page.locator('button.authorize.locked').first().waitFor();
      const { request, status, body } = await runListSales(page);
      expect(new URL(request.url()).searchParams.get('From')).toBe('2026-03-01T00:00:00');
      expect(status).toBe('200');
      expect((JSON.parse(body) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      expect(browser.errors).toEqual([]);
    },
  );
});
