#!/usr/bin/env node
/**
 * Generates from the service's OpenAPI document (docs/openapi.json at the repository's root):
 * - src/generated/openapi.ts, its types, with openapi-typescript (pinned in package.json);
 * - src/generated/resources.ts, the client's cursor resources: one property per `list<Name>`
 *   operation whose page has a `nextCursor`, with the feed and digest its path has (issue 41);
 * - src/generated/mirror-columns.ts, the mirror's columns of each of those resources' records
 *   (field, snake_case column, id/int/text, nullability), and of the arrays of objects they hold
 *   (a sale's `lines`): a new field of the API reaches the mirror's tables by regeneration alone.
 *   node scripts/generate-types.mjs            writes the files
 *   node scripts/generate-types.mjs --check    exits 1 when a committed file is stale
 * Re-run it whenever `npm run openapi` changes docs/openapi.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = dirname(fileURLToPath(import.meta.url));
const documentFile = join(here, '../../../docs/openapi.json');
const outFile = join(here, '../src/generated/openapi.ts');
const resourcesFile = join(here, '../src/generated/resources.ts');
const mirrorColumnsFile = join(here, '../src/generated/mirror-columns.ts');

const HEADER = `/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs
 * (openapi-typescript). Do not edit: run \`npm run generate -w @pos-read-api/client\`.
 */

`;

const document = JSON.parse(readFileSync(documentFile, 'utf8'));
const ast = await openapiTS(document, { alphabetize: false, exportType: false });
const outputs = [
  [outFile, HEADER + astToString(ast)],
  [resourcesFile, cursorResources(document)],
  [mirrorColumnsFile, mirrorColumns(document)],
];

/** The name a `#/components/schemas/<Name>` reference names, or undefined. */
function schemaName(schema) {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
}

/** The cursor resources: each list operation whose page has a `nextCursor`, and its record. */
function listResources(doc) {
  const found = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    const list = operations.get;
    if (!list?.operationId?.startsWith('list')) continue;
    const page =
      doc.components.schemas[schemaName(list.responses['200'].content['application/json'].schema)];
    const record = schemaName(page?.properties?.data?.items);
    if (!page?.properties?.nextCursor || !record) continue;
    found.push({ path, record });
  }
  return found;
}

function snakeCase(field) {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * How the mirror keeps a field: `id` a decimal identifier string (pattern `^[0-9]+$`) as an
 * INTEGER, `int` an integer, `text` any other string (decimal amounts and date-times included).
 * Anything else has no column type yet: the generation stops and says so.
 */
function columnType(schemaLabel, field, property) {
  if (property.type === 'integer') return 'int';
  if (property.type === 'string') return property.pattern === '^[0-9]+$' ? 'id' : 'text';
  throw new Error(
    `${schemaLabel}.${field} is of type ${property.type}: the mirror has no column type for it ` +
      '(packages/client/scripts/generate-types.mjs, columnType)',
  );
}

/** A record schema's columns, and its arrays of records (`lines`) as nested column lists. */
function recordColumns(doc, name) {
  const schema = doc.components.schemas[name];
  const required = new Set(schema.required ?? []);
  const columns = [];
  const nested = {};
  for (const [field, property] of Object.entries(schema.properties)) {
    const item = schemaName(property.items);
    if (property.type === 'array' && item) {
      nested[field] = recordColumns(doc, item).columns;
      continue;
    }
    const type = columnType(name, field, property);
    const nullable = property.nullable === true || !required.has(field);
    columns.push({ field, column: snakeCase(field), type, nullable });
  }
  return { columns, nested };
}

function mirrorColumns(doc) {
  const column = (c) =>
    `      { field: '${c.field}', column: '${c.column}', type: '${c.type}', nullable: ${c.nullable} },`;
  const resources = listResources(doc).map(({ path, record }) => {
    const { columns, nested } = recordColumns(doc, record);
    const nestedText = Object.entries(nested)
      .map(
        ([field, list]) =>
          `      ${field}: [\n${list.map((c) => `  ${column(c)}`).join('\n')}\n      ],`,
      )
      .join('\n');
    return (
      `  /** ${path}: the schema ${record}. */\n` +
      `  '${path.split('/').pop()}': {\n    columns: [\n${columns.map(column).join('\n')}\n    ],\n` +
      `    nested: {${nestedText ? `\n${nestedText}\n    ` : ''}},\n  },`
    );
  });
  return `/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * \`npm run generate -w @pos-read-api/client\`.
 */

/** A field of a record and the mirror's column for it (packages/client/src/mirror/schema.ts). */
export interface GeneratedColumn {
  readonly field: string;
  readonly column: string;
  readonly type: 'id' | 'int' | 'text';
  readonly nullable: boolean;
}

/** Each cursor resource's record as columns, in the document's order, and its nested lists. */
export const MIRROR_COLUMNS = {
${resources.join('\n')}
} as const satisfies Record<
  string,
  { columns: readonly GeneratedColumn[]; nested: Record<string, readonly GeneratedColumn[]> }
>;
`;
}

/**
 * The class PosReadClient extends: a property per cursor resource, named after its path's last
 * segment in camel case, typed by what the document gives that path (a list, a feed, a digest).
 */
function cursorResources(doc) {
  const resources = [];
  for (const { path, record } of listResources(doc)) {
    const methods = ['list'];
    if (doc.paths[`${path}/feed`]?.get) methods.push('feed');
    if (doc.paths[`${path}/digest`]?.get) methods.push('digest');
    const name = path
      .split('/')
      .pop()
      .replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    const type =
      methods.length === 3
        ? `CursorResource<Schemas['${record}']>`
        : `Pick<CursorResource<Schemas['${record}']>, ${methods.map((m) => `'${m}'`).join(' | ')}>`;
    resources.push({ path, name, type, methods });
  }
  const properties = resources
    .map((r) => `  /** ${r.path}: ${r.methods.join(', ')}. */\n  readonly ${r.name}: ${r.type};`)
    .join('\n');
  const assignments = resources
    .map((r) => `    this.${r.name} = new CursorResource(transport, '${r.path}');`)
    .join('\n');
  return `/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * \`npm run generate -w @pos-read-api/client\`.
 */
import { CursorResource } from '../resources.js';
import type { Transport } from '../transport.js';
import type { components } from './openapi.js';

type Schemas = components['schemas'];

/** The API's cursor resources: one per list operation, with its feed and digest where it has them. */
export class CursorResources {
${properties}

  constructor(transport: Transport) {
${assignments}
  }
}
`;
}

if (process.argv.includes('--check')) {
  let stale = false;
  for (const [file, generated] of outputs) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // missing counts as stale
    }
    const name = relative(join(here, '..'), file);
    if (committed !== generated) {
      console.error(
        `packages/client/${name} is stale: run \`npm run generate -w @pos-read-api/client\` and commit it.`,
      );
      stale = true;
    } else {
      console.log(`packages/client/${name} matches docs/openapi.json`);
    }
  }
  if (stale) process.exit(1);
} else {
  for (const [file, generated] of outputs) {
    writeFileSync(file, generated);
    console.log(`wrote ${file}`);
  }
}
