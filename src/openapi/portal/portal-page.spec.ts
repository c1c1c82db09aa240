import { Script } from 'node:vm';
import { portalModeOf } from './portal-mode';
import { PORTAL_CSP, renderPortalPage } from './portal-page';
import { portalScriptConfig, renderPortalScript } from './portal-script';

describe('renderPortalPage', () => {
  it('should choose the read-only portal for production only', () => {
    expect(portalModeOf('production')).toBe('read-only');
    expect(portalModeOf('preproduction')).toBe('test-token');
    expect(portalModeOf('development')).toBe('test-token');
  });

  it('should have no password field in the read-only page, and one in the test-token page', () => {
    expect(renderPortalPage('production')).not.toMatch(/type="password"|name="password"/);
    expect(renderPortalPage('development')).toMatch(
      /<input id="test-token-password"[^>]*type="password"/,
    );
  });

  it.each([
    ['development', 'Development portal (APP_ENV=development).'],
    ['preproduction', 'Pre-production portal (APP_ENV=preproduction).'],
    ['production', 'Production portal (APP_ENV=production).'],
  ] as const)(
    'should name the environment it runs in, %s, in its banner (issue 22)',
    (appEnv, title) => {
      const page = renderPortalPage(appEnv);
      expect(page).toContain(`<strong>${title}</strong>`);
      expect(page.match(/<strong>[^<]*portal[^<]*<\/strong>/g)).toHaveLength(1);
    },
  );

  it('should load every script, style and icon from the service itself (no CDN)', () => {
    for (const appEnv of ['production', 'development'] as const) {
      const urls = [...renderPortalPage(appEnv).matchAll(/(?:src|href)="([^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(urls.length).toBeGreaterThanOrEqual(4);
      for (const url of urls) expect(url).toMatch(/^\/docs\/[\w.-]+$/);
    }
    expect(PORTAL_CSP).toMatch(/script-src 'self'/);
    expect(PORTAL_CSP).not.toMatch(/https?:/);
  });
});

describe('renderPortalScript', () => {
  it('should submit only GET in read-only mode, and configure the bearer scheme of the document', () => {
    expect(portalScriptConfig('read-only')).toEqual({
      mode: 'read-only',
      documentUrl: '/docs/openapi.json',
      tokenPath: '/api/v1.0/Token',
      scheme: 'bearer',
    });
    const script = renderPortalScript('read-only');
    expect(script).toContain('"mode":"read-only"');
    expect(script).toContain("supportedSubmitMethods: readOnly ? ['get'] : ['get', 'post']");
    expect(script).toContain('validatorUrl: null');
    expect(script).toContain('persistAuthorization: false');
  });

  it('should be valid JavaScript in both modes', () => {
    for (const mode of ['read-only', 'test-token'] as const) {
      expect(() => new Script(renderPortalScript(mode))).not.toThrow();
    }
  });
});
