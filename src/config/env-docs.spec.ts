import { getMetadataStorage } from 'class-validator';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AppConfig } from './app-config';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The variables read before AppConfig is loaded, each with the file that reads it. */
const OUTSIDE_APP_CONFIG = [
  { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', readIn: 'src/operations/tracing/tracing-settings.ts' },
  { name: 'OTEL_EXPORTER_OTLP_PROTOCOL', readIn: 'src/operations/tracing/tracing-settings.ts' },
];

const names = (text: string, pattern: RegExp): string[] =>
  [...new Set([...text.matchAll(pattern)].map((m) => m[1]))].sort();

/** Every variable AppConfig validates (each decorated property is one). */
const configured = names(
  getMetadataStorage()
    .getTargetValidationMetadatas(AppConfig, '', true, false)
    .map((m) => `${m.propertyName}\n`)
    .join(''),
  /^([A-Z][A-Z0-9_]+)$/gm,
);
const documented = [...configured, ...OUTSIDE_APP_CONFIG.map((v) => v.name)].sort();

describe('the settings, in step', () => {
  it('should find the config class validating the settings at all', () => {
    expect(configured).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'APP_ENV']));
  });

  it('should list in .env.example exactly the variables the service reads', () => {
    expect(names(read('.env.example'), /^#?\s*([A-Z][A-Z0-9_]+)=/gm)).toEqual(documented);
  });

  it("should describe in docs/operations.md's tables exactly the variables the service reads", () => {
    expect(names(read('docs/operations.md'), /^\| `([A-Z][A-Z0-9_]+)`/gm)).toEqual(documented);
  });

  it.each(OUTSIDE_APP_CONFIG)('should find $name read where the list says', ({ name, readIn }) => {
    expect(read(readIn)).toContain(name);
  });
});
