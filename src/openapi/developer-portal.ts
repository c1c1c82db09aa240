import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config';
import { buildOpenApiDocument, DOCS_PATH, DOCUMENT_PATH } from './openapi.document';
import { readPortalAsset, SWAGGER_UI_ASSETS } from './portal/portal-assets';
import { portalModeOf } from './portal/portal-mode';
import { PORTAL_CSP, PORTAL_FILES, PORTAL_STYLES, renderPortalPage } from './portal/portal-page';
import { renderPortalScript } from './portal/portal-script';

interface PortalFile {
  path: string;
  type: string;
  body: () => string | Buffer;
}

const HTML = 'text/html; charset=utf-8';

const SECURITY_HEADERS = {
  'Content-Security-Policy': PORTAL_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * The developer portal: the OpenAPI document at /docs/openapi.json and Swagger UI at /docs, in
 * the mode APP_ENV selects. Documentation, not data: these routes need no token. Swagger UI's
 * files come from swagger-ui-dist and are served here (no CDN; works with no network).
 */
export function setupDeveloperPortal(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    ui: false,
    raw: ['json'],
    jsonDocumentUrl: DOCUMENT_PATH,
  });

  const mode = portalModeOf(config.APP_ENV);
  const page = renderPortalPage(config.APP_ENV);
  const script = renderPortalScript(mode);
  const files: PortalFile[] = [
    { path: DOCS_PATH, type: HTML, body: () => page },
    { path: `${DOCS_PATH}/`, type: HTML, body: () => page },
    {
      path: PORTAL_FILES.script,
      type: 'application/javascript; charset=utf-8',
      body: () => script,
    },
    { path: PORTAL_FILES.styles, type: 'text/css; charset=utf-8', body: () => PORTAL_STYLES },
    ...SWAGGER_UI_ASSETS.map((asset) => ({
      path: `${DOCS_PATH}/${asset.name}`,
      type: asset.contentType,
      body: () => readPortalAsset(asset),
    })),
  ];
  const fastify = app.getHttpAdapter().getInstance();
  for (const file of files) {
    fastify.get(file.path, (_request, reply) =>
      reply
        .headers(SECURITY_HEADERS)
        .header('Cache-Control', 'no-cache')
        .type(file.type)
        .send(file.body()),
    );
  }
}
