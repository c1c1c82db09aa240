#!/usr/bin/env node
/**
 * Generates src/generated/openapi.ts from the service's OpenAPI document (docs/openapi.json at
 * the repository's root) with openapi-typescript (pinned in package.json).
 *   node scripts/generate-types.mjs            writes the file
 *   node scripts/generate-types.mjs --check    exits 1 when the committed file is stale
 * Re-run it whenever `npm run openapi` changes docs/openapi.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = dirname(fileURLToPath(import.meta.url));
const documentFile = join(here, '../../../docs/openapi.json');
const outFile = join(here, '../src/generated/openapi.ts');

const HEADER = `/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs
 * (openapi-typescript). Do not edit: run \`npm run generate -w @pos-read-api/client\`.
 */

`;

const document = JSON.parse(readFileSync(documentFile, 'utf8'));
const ast = await openapiTS(document, { alphabetize: false, exportType: false });
const generated = HEADER + astToString(ast);

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(outFile, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (committed !== generated) {
    console.error(
      'packages/client/src/generated/openapi.ts is stale: run `npm run generate -w @pos-read-api/client` and commit it.',
    );
    process.exit(1);
  }
  console.log('packages/client/src/generated/openapi.ts matches docs/openapi.json');
} else {
  writeFileSync(outFile, generated);
  console.log(`wrote ${outFile}`);
}
