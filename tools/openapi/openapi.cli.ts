import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/load-config';
import { buildOpenApiDocument } from '../../src/openapi/openapi.document';

/** Where the committed document lives, relative to the project root. */
export const COMMITTED_DOCUMENT = 'docs/openapi.json';

/** The document as committed: two-space JSON and a final newline. */
export function serializeDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Builds the document from an app that is created but never listens, on a throw-away embedded
 * database, so it needs no server, no database and no keys.
 */
export async function generateDocumentText(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-openapi-'));
  try {
    const app = await createApp(
      loadConfig({
        APP_ENV: 'development',
        DATA_DIR: dataDir,
        DEMO_SEED: 'false',
        LOG_LEVEL: 'error',
      }),
    );
    try {
      return serializeDocument(buildOpenApiDocument(app));
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `node dist/tools/openapi/openapi.cli.js [--check]`: writes docs/openapi.json, or checks it. */
async function main(argv: readonly string[]): Promise<number> {
  const file = path.resolve(process.cwd(), COMMITTED_DOCUMENT);
  const generated = await generateDocumentText();
  if (!argv.includes('--check')) {
    writeFileSync(file, generated);
    process.stdout.write(`Wrote ${COMMITTED_DOCUMENT}\n`);
    return 0;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    committed = '';
  }
  if (committed === generated) {
    process.stdout.write(`${COMMITTED_DOCUMENT} matches the code.\n`);
    return 0;
  }
  process.stderr.write(
    `${COMMITTED_DOCUMENT} differs from the document the code produces: run \`npm run openapi\` ` +
      'and commit the result (the check uses the build in dist/: run `npm run build` first).\n',
  );
  return 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
