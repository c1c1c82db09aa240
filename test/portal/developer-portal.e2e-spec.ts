import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { createUser, CreatedUser } from '../support/factories';
import { getToken } from '../support/http';
import { chromium, requires } from '../support/requirements';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { openOperation, openPortalBrowser, PortalBrowser, runListSales } from './portal-browser';
import { startPortalApp } from './portal-app';

// Real Chromium (Debian's chromium package; skipped without it, required with CI=true) against the real service. These specs run on the
// embedded SQLite only: the portal is the same whatever the database, and the HTTP contract of
// every operation is proven on SQLite and MariaDB by the other end-to-end specs.

const ARTIFACTS = path.join(__dirname, '../../test-artifacts/portal');
const TIMEOUT = 90_000;

/** The whole page, and its top as a reader first sees it, under test-artifacts/portal/. */
async function screenshots(page: Page, mode: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${mode}.png`), fullPage: true });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(ARTIFACTS, `${mode}-top.png`) });
}

requires(chromium).describe(
  'The developer portal in a real browser (contract Authentication rule 10)',
  () => {
    let database: TestDatabase;
    let user: CreatedUser;
    let app: NestFastifyApplication | undefined;
    let browser: PortalBrowser | undefined;

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      database = await createTestDatabase('sqlite');
      const seeded = await seedBusinessData(database.db, {
        seed: 7,
        shops: 1,
        days: 1,
        salesPerDay: 8,
        startDate: '2026-03-02',
      });
      user = await createUser(database.db, { shops: seeded.shopCodes });
    }, TIMEOUT);
    afterEach(async () => {
      await browser?.close();
      await app?.close();
      browser = undefined;
      app = undefined;
    });
    afterAll(async () => {
      await database?.drop();
    });

    it(
      'should let pre-production get a test token with username and password, then run GET sales with it',
      async () => {
        const started = await startPortalApp(database, 'preproduction');
        app = started.app;
        browser = await openPortalBrowser(started.baseUrl);
        const { page } = browser;
        await page.goto(`${started.baseUrl}/docs`);
        await page.locator('#operations-Sales-listSales').waitFor();

        await page.fill('#test-token-username', user.username);
        await page.fill('#test-token-password', user.password);
        await page.click('#test-token-submit');
        await page.locator('#test-token-status[data-state="ok"]').waitFor();
        expect(await page.inputValue('#test-token-password')).toBe('');
        await page.locator('button.authorize.locked').first().waitFor();

        const token = await openOperation(page, 'Authentication', 'issueToken');
        await token.locator('button.try-out__btn').waitFor();
        expect(await token.locator('button.try-out__btn').count()).toBe(1);

        const { request, status, body } = await runListSales(page);
        expect(request.headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
        expect(status).toBe('200');
        const page1 = JSON.parse(body);
        expect(page1.data.length).toBeGreaterThan(0);
        expect(page1.data[0]).toEqual(
          expect.objectContaining({ ticketNumber: expect.any(String) }),
        );

        await screenshots(page, 'preproduction');
        expect(browser.offOrigin).toEqual([]);
        expect(browser.errors).toEqual([]);
      },
      TIMEOUT,
    );

    /** Production's page: no password, no "Try it out" on the token; `paste` goes into Authorize. */
    async function runProductionWithPasted(
      paste: (token: string) => string,
      shot: string,
    ): Promise<void> {
      const started = await startPortalApp(database, 'production');
      app = started.app;
      const pasted = await getToken(started.baseUrl, user.username, user.password);
      browser = await openPortalBrowser(started.baseUrl);
      const { page } = browser;
      await page.goto(`${started.baseUrl}/docs`);
      await page.locator('#operations-Sales-listSales').waitFor();

      expect(await page.locator('input[type="password"], [name="password"]').count()).toBe(0);
      expect(await page.locator('#test-token').count()).toBe(0);
      const token = await openOperation(page, 'Authentication', 'issueToken');
      expect(await token.locator('button.try-out__btn').count()).toBe(0);
      expect(await token.locator('button.execute, textarea').count()).toBe(0);

      await page.locator('button.authorize').first().click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.waitFor();
      expect(await page.locator('input[type="password"]').count()).toBe(0);
      // The dialog asks for the token alone and says so (issue 46).
      expect(await dialog.innerText()).toMatch(/alone: paste it without Bearer/);
      await dialog.locator('#auth-bearer-value').fill(paste(pasted));
      await dialog.locator('.auth-btn-wrapper button.authorize').click();
      await dialog.locator('.auth-btn-wrapper button.btn-done').click();
      await page.locator('button.authorize.locked').first().waitFor();

      const { request, status, body } = await runListSales(page);
      expect(request.headers().authorization).toBe(`Bearer ${pasted}`);
      expect(status).toBe('200');
      expect(JSON.parse(body).data.length).toBeGreaterThan(0);
      expect(await page.locator('input[type="password"]').count()).toBe(0);

      await screenshots(page, shot);
      expect(browser.offOrigin).toEqual([]);
      expect(browser.errors).toEqual([]);
    }

    it(
      'should never ask for a password in production nor execute the token operation, and run GET sales with a pasted token',
      () => runProductionWithPasted((token) => token, 'production'),
      TIMEOUT,
    );

    it(
      'should send the prefix once when the token is pasted with "Bearer " (issue 46)',
      () => runProductionWithPasted((token) => `Bearer ${token}`, 'production-prefixed'),
      TIMEOUT,
    );
  },
);
