import { PASSWORD_MAX_LENGTH } from '../../config/limits';
import type { AppEnv } from '../../config/app-config';
import { portalModeOf, type PortalMode } from './portal-mode';

/** Paths of the portal, all under /docs and all served by the service itself. */
export const PORTAL_FILES = {
  script: '/docs/portal.js',
  styles: '/docs/portal.css',
  swaggerCss: '/docs/swagger-ui.css',
  swaggerBundle: '/docs/swagger-ui-bundle.js',
  favicon: '/docs/favicon-32x32.png',
} as const;

/**
 * Only the service's own origin: no CDN, no inline script, no form submission, no framing.
 * Swagger UI sets inline styles, hence 'unsafe-inline' for styles only.
 */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The banner's title: the environment the portal runs in, as APP_ENV names it. */
const ENVIRONMENT_NAMES: Record<AppEnv, string> = {
  development: 'Development',
  preproduction: 'Pre-production',
  production: 'Production',
};

const BANNERS: Record<PortalMode, string> = {
  'test-token':
    'Enter the username and password of a test user ' +
    'to get a test token: it then authorizes every operation on this page. ' +
    'Never type production credentials here.',
  'read-only':
    'This page never asks for a password: paste a token ' +
    'your integration obtained into <em>Authorize</em>, alone: the page adds ' +
    '<code>Bearer </code> itself. Only GET operations can be tried.',
};

/** The banner of an environment: its name (and APP_ENV), then what its mode lets one do. */
function bannerOf(appEnv: AppEnv): string {
  const title = `${ENVIRONMENT_NAMES[appEnv]} portal (APP_ENV=${appEnv}).`;
  return `<strong>${title}</strong> ${BANNERS[portalModeOf(appEnv)]}`;
}

/** The username and password form of the test-token mode (absent in production). */
const TEST_TOKEN_FORM = `
<form id="test-token" class="portal-token-form" method="post" autocomplete="off">
  <label>Username <input id="test-token-username" name="username" autocomplete="username" required maxlength="64"></label>
  <label>Password <input id="test-token-password" name="password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX_LENGTH}"></label>
  <button type="submit" id="test-token-submit">Get a test token</button>
  <output id="test-token-status" role="status" aria-live="polite"></output>
</form>`;

/** The portal page of an environment: Swagger UI plus its banner (and, in test-token mode, the form). */
export function renderPortalPage(appEnv: AppEnv): string {
  const mode = portalModeOf(appEnv);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>POS read API - developer portal</title>
<link rel="stylesheet" href="${PORTAL_FILES.swaggerCss}">
<link rel="stylesheet" href="${PORTAL_FILES.styles}">
<link rel="icon" type="image/png" href="${PORTAL_FILES.favicon}" sizes="32x32">
</head>
<body data-portal-mode="${mode}">
<header class="portal-banner portal-${mode}">
  <p>${bannerOf(appEnv)}</p>${mode === 'test-token' ? TEST_TOKEN_FORM : ''}
</header>
<div id="swagger-ui"></div>
<script src="${PORTAL_FILES.swaggerBundle}"></script>
<script src="${PORTAL_FILES.script}"></script>
</body>
</html>
`;
}

export const PORTAL_STYLES = `
body { margin: 0; background: #fafafa; }
.portal-banner { font-family: sans-serif; padding: 12px 20px; border-bottom: 1px solid #ddd; }
.portal-banner p { margin: 0 0 8px; max-width: 1420px; }
.portal-test-token { background: #fff8e1; }
.portal-read-only { background: #e8f5e9; }
.portal-token-form { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
.portal-token-form input { margin-left: 6px; padding: 4px 6px; }
.portal-token-form button { padding: 5px 14px; cursor: pointer; }
#test-token-status[data-state='ok'] { color: #1b5e20; }
#test-token-status[data-state='error'] { color: #b71c1c; }
`;
