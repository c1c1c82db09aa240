#!/usr/bin/env node
/**
 * Generates from the service's OpenAPI document (docs/openapi.json at the repository's root):
 * - src/generated/openapi.ts, its types, with openapi-typescript (pinned in package.json);
 * - src/generated/resources.ts, the client's cursor resources: one property per `list<Name>`
 *   operation whose page has a `nextCursor`, with the feed, digest and bulk read its path has
 *   (issues 41 and 55);
 * - src/generated/mirror-columns.ts, the mirror's columns of each of those resources' records
 *   (field, snake_case column, id/int/text, nullability), and of the arrays of objects they hold
 *   (a sale's `lines`), and the field that dates a record (the list's `x-dated-by`): a new field
 *   of the API reaches the mirror's tables by regeneration alone;
 * - src/generated/digests.ts, the fields each digest version covers per resource (the digest
 *   operation's `x-digest-fields`) and the newest version (its `Version` parameter's enum).
 * A resource, field or version the generator cannot place stops it with a message, never a guess.
 *   node scripts/generate-types.mjs            writes the files
 *   node scripts/generate-types.mjs --check    exits 1 when a committed file is stale
 *   node scripts/generate-types.mjs --check --document FILE    the same against another document
 * Re-run it whenever `npm run openapi` changes docs/openapi.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = dirname(fileURLToPath(import.meta.url));
// --document FILE reads another document (the specs' broken ones); the files compared or written stay.
const documentAt = process.argv.indexOf('--document');
const documentFile =
  documentAt > 0 ? process.argv[documentAt + 1] : join(here, '../../../docs/openapi.json');
const outFile = join(here, '../src/generated/openapi.ts');
const resourcesFile = join(here, '../src/generated/resources.ts');
const mirrorColumnsFile = join(here, '../src/generated/mirror-columns.ts');
const digestsFile = join(here, '../src/generated/digests.ts');

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
  [digestsFile, digests(document)],
];

/** The name a `#/components/schemas/<Name>` reference names, or undefined. */
function schemaName(schema) {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
}

/**
 * The cursor resources: each list operation whose page has a `nextCursor`, and its record, the
 * field that dates it, the client's property for it (the path's last segment in camel case) and
 * the operations its path has (a list, and a feed, a digest and a bulk read where the document
 * gives them).
 */
function listResources(doc) {
  const found = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    const list = operations.get;
    if (!list?.operationId?.startsWith('list')) continue;
    const page =
      doc.components.schemas[schemaName(list.responses['200'].content['application/json'].schema)];
    const record = schemaName(page?.properties?.data?.items);
    if (!page?.properties?.nextCursor || !record) continue;
    const datedBy = list['x-dated-by'];
    if (typeof datedBy !== 'string' || !doc.components.schemas[record].properties[datedBy]) {
      throw new Error(
        `${path}: its list operation names no field of ${record} as \`x-dated-by\` ` +
          '(packages/client/scripts/generate-types.mjs, listResources)',
      );
    }
    const methods = ['list'];
    if (doc.paths[`${path}/feed`]?.get) methods.push('feed');
    if (doc.paths[`${path}/digest`]?.get) methods.push('digest');
    if (doc.paths[`${path}/bulk`]?.get) methods.push('bulk');
    const property = resourceName(path).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    found.push({ path, record, datedBy, methods, property });
  }
  return found;
}

/** The last segment of a path: the resource's name in the client (`cash-movements`). */
function resourceName(path) {
  return path.split('/').pop();
}

/**
 * Each digest's fields per version, from its operation's `x-digest-fields`, checked against the
 * versions its `Version` parameter allows and the fields its record has; and the newest version.
 */
function digests(doc) {
  let newest = null;
  const entries = [];
  for (const { path, record } of listResources(doc)) {
    const digest = doc.paths[`${path}/digest`]?.get;
    if (!digest) continue;
    const fields = digest['x-digest-fields'];
    const versions = digest.parameters?.find((p) => p.name === 'Version')?.schema?.enum;
    const where = `${path}/digest (packages/client/scripts/generate-types.mjs, digests)`;
    if (!fields || !Array.isArray(versions) || versions.length === 0) {
      throw new Error(`${where}: no x-digest-fields, or no Version parameter with an enum`);
    }
    if (JSON.stringify(Object.keys(fields).map(Number)) !== JSON.stringify(versions)) {
      throw new Error(`${where}: x-digest-fields names versions other than ${versions.join(', ')}`);
    }
    const known = doc.components.schemas[record].properties;
    for (const [version, names] of Object.entries(fields)) {
      const unknown = names.filter((name) => !known[name]);
      if (unknown.length > 0) {
        throw new Error(`${where}: version ${version} names fields ${record} lacks: ${unknown}`);
      }
    }
    const last = Math.max(...versions);
    if (newest !== null && newest !== last)
      throw new Error(`${where}: newest ${last}, not ${newest}`);
    newest = last;
    entries.push(
      `  /** ${path}/digest. */
  '${resourceName(path)}': {
` +
        Object.entries(fields)
          .map(([version, names]) => `    ${version}: [${names.map((n) => `'${n}'`).join(', ')}],`)
          .join('\n') +
        '\n  },',
    );
  }
  return `/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * \`npm run generate -w @pos-read-api/client\`.
 */

/** The newest digest version the service answers (a new mirror verifies with it). */
export const NEWEST_DIGEST_VERSION = ${newest};

/** Each digested resource's fields per digest version: what a day's checksum covers. */
export const DIGEST_FIELDS = {
${entries.join('\n')}
} as const satisfies Record<string, Record<number, readonly string[]>>;
`;
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

/**
 * What a field's value is, as an analyst's tool types it (the Parquet column of an export):
 * `id`, `int`, a `decimal` (format decimal; its scale from the pattern, its precision from
 * `x-decimal-precision`), a `date` (format date), an `instant` (format date-time), a `local-time`
 * (`x-local-date-time`), `text` (a string of no format). A string of another format, or a
 * decimal without its precision in a record an export writes (`exported`), stops the generation:
 * a field the generator cannot place is never written as text by default.
 */
function valueKind(schemaLabel, field, property, exported) {
  const refuse = (why) => {
    throw new Error(
      `${schemaLabel}.${field} ${why}: the client has no column type for it ` +
        '(packages/client/scripts/generate-types.mjs, valueKind)',
    );
  };
  const type = columnType(schemaLabel, field, property);
  if (type !== 'text') return { kind: type };
  if (property['x-local-date-time'] === true) return { kind: 'local-time' };
  switch (property.format) {
    case undefined:
      return { kind: 'text' };
    case 'date':
      return { kind: 'date' };
    case 'date-time':
      return { kind: 'instant' };
    case 'decimal': {
      const scale = /\\\.\[0-9\]\{(\d+)\}\$$/.exec(property.pattern ?? '')?.[1];
      const precision = property['x-decimal-precision'] ?? null;
      if (scale === undefined) refuse('is a decimal whose pattern gives no scale');
      if (exported && precision === null) refuse('is a decimal without x-decimal-precision');
      return { kind: 'decimal', precision, scale: Number(scale) };
    }
    default:
      return refuse(`has the format ${property.format}`);
  }
}

/** A record schema's columns, and its arrays of records (`lines`) as nested column lists. */
function recordColumns(doc, name, exported) {
  const schema = doc.components.schemas[name];
  const required = new Set(schema.required ?? []);
  const columns = [];
  const nested = {};
  for (const [field, property] of Object.entries(schema.properties)) {
    const item = schemaName(property.items);
    if (property.type === 'array' && item) {
      nested[field] = recordColumns(doc, item, exported).columns;
      continue;
    }
    const type = columnType(name, field, property);
    const nullable = property.nullable === true || !required.has(field);
    const value = valueKind(name, field, property, exported);
    columns.push({ field, column: snakeCase(field), type, nullable, value });
  }
  return { columns, nested };
}

function valueText(value) {
  return `{ ${Object.entries(value)
    .map(([key, v]) => `${key}: ${typeof v === 'string' ? `'${v}'` : v}`)
    .join(', ')} }`;
}

function mirrorColumns(doc) {
  const column = (c) =>
    `      { field: '${c.field}', column: '${c.column}', type: '${c.type}', nullable: ${c.nullable}, value: ${valueText(c.value)} },`;
  const resources = listResources(doc).map(({ path, record, datedBy, methods, property }) => {
    // A resource with a feed is exported (pos-read export, Parquet): its every value is typed.
    const { columns, nested } = recordColumns(doc, record, methods.includes('feed'));
    const nestedText = Object.entries(nested)
      .map(
        ([field, list]) =>
          `      ${field}: [\n${list.map((c) => `  ${column(c)}`).join('\n')}\n      ],`,
      )
      .join('\n');
    return (
      `  /** ${path}: the schema ${record}. */\n` +
      `  '${resourceName(path)}': {\n    property: '${property}',\n` +
      `    methods: [${methods.map((m) => `'${m}'`).join(', ')}],\n    dayField: '${datedBy}',\n` +
      `    columns: [\n${columns.map(column).join('\n')}\n    ],\n` +
      `    nested: {${nestedText ? `\n${nestedText}\n    ` : ''}},\n  },`
    );
  });
  return `/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * \`npm run generate -w @pos-read-api/client\`.
 */

/**
 * What a field's value is, as an export types it (packages/client/src/parquet/columns.ts): a
 * decimal's precision is null only in a record no export writes (a list without a feed).
 */
export type ValueKind =
  | { readonly kind: 'id' | 'int' | 'date' | 'local-time' | 'instant' | 'text' }
  | { readonly kind: 'decimal'; readonly precision: number | null; readonly scale: number };

/** A field of a record and the mirror's column for it (packages/client/src/mirror/schema.ts). */
export interface GeneratedColumn {
  readonly field: string;
  readonly column: string;
  readonly type: 'id' | 'int' | 'text';
  readonly nullable: boolean;
  readonly value: ValueKind;
}

/**
 * Each cursor resource's record as columns, in the document's order, and its nested lists; its
 * property in the client, the operations its path has, and its day field, the record's field
 * that dates it.
 */
export const MIRROR_COLUMNS = {
${resources.join('\n')}
} as const satisfies Record<
  string,
  {
    property: string;
    methods: readonly ('list' | 'feed' | 'digest' | 'bulk')[];
    dayField: string;
    columns: readonly GeneratedColumn[];
    nested: Record<string, readonly GeneratedColumn[]>;
  }
>;
`;
}

/**
 * The class PosReadClient extends: a property per cursor resource, named after its path's last
 * segment in camel case, typed by what the document gives that path (a list, a feed, a digest).
 */
function cursorResources(doc) {
  const resources = listResources(doc).map(({ path, record, methods, property }) => {
    const type =
      methods.length === 4
        ? `CursorResource<Schemas['${record}']>`
        : `Pick<CursorResource<Schemas['${record}']>, ${methods.map((m) => `'${m}'`).join(' | ')}>`;
    return { path, name: property, type, methods };
  });
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

/** The API's cursor resources: one per list operation, with its feed, digest and bulk read where it has them. */
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
