import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** A file of swagger-ui-dist the portal page loads, served by the service itself (no CDN). */
export interface PortalAsset {
  name: string;
  contentType: string;
}

export const SWAGGER_UI_ASSETS: readonly PortalAsset[] = [
  { name: 'swagger-ui.css', contentType: 'text/css; charset=utf-8' },
  { name: 'swagger-ui-bundle.js', contentType: 'application/javascript; charset=utf-8' },
  { name: 'favicon-32x32.png', contentType: 'image/png' },
  { name: 'favicon-16x16.png', contentType: 'image/png' },
];

/** The swagger-ui-dist that @nestjs/swagger itself depends on (one version for both). */
function swaggerUiDistFolder(): string {
  const swaggerPackage = require.resolve('@nestjs/swagger/package.json');
  const dist = require.resolve('swagger-ui-dist/package.json', {
    paths: [path.dirname(swaggerPackage)],
  });
  return path.dirname(dist);
}

const loaded = new Map<string, Buffer>();

/** The bytes of an asset, read once per process on first use. */
export function readPortalAsset(asset: PortalAsset): Buffer {
  let content = loaded.get(asset.name);
  if (!content) {
    content = readFileSync(path.join(swaggerUiDistFolder(), asset.name));
    loaded.set(asset.name, content);
  }
  return content;
}
