import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BrowserContext, chromium, Page, Request } from 'playwright-core';
import { CHROMIUM_PATH } from '../support/requirements';

/** Headless, no sandbox (containers), and none of the browser's own network traffic. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface PortalBrowser {
  context: BrowserContext;
  page: Page;
  /** Requests the page tried to send anywhere but the service (all were refused). */
  offOrigin: string[];
  /** Console errors and uncaught exceptions of the page (CSP violations show up here). */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Real Chromium with a fresh profile. Every request to another origin is aborted and recorded,
 * so the page works only if everything it needs comes from the service (no CDN, no network).
 */
export async function openPortalBrowser(baseUrl: string): Promise<PortalBrowser> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const offOrigin: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${baseUrl}/`) || url.startsWith('data:')) return route.continue();
    offOrigin.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    context,
    page,
    offOrigin,
    errors,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Opens an operation of Swagger UI (by tag and operationId) and returns its block. */
export async function openOperation(page: Page, tag: string, operationId: string) {
  const block = page.locator(`#operations-${tag.replace(/ /g, '_')}-${operationId}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('.opblock-body').waitFor();
  // The body renders before its sections (Swagger UI resolves the operation first): what the specs
  // count (a "Try it out" button or none) is only there with the section headers.
  await block.locator('.opblock-section-header').first().waitFor();
  return block;
}

/** Runs GET /sales from the portal ("Try it out", "Execute") and returns what was sent and shown. */
export async function runListSales(
  page: Page,
): Promise<{ request: Request; status: string; body: string }> {
  const block = await openOperation(page, 'Sales', 'listSales');
  await block.locator('button.try-out__btn').click();
  const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1.0/sales');
  await block.locator('button.execute').click();
  const request = await sent;
  const response = block.locator('.live-responses-table .response').first();
  await response.waitFor();
  return {
    request,
    status: (await response.locator('.response-col_status').innerText()).trim(),
    body: await response.locator('.response-col_description pre').first().innerText(),
  };
}
