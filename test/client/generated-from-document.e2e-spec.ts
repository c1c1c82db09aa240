import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CATALOGUE } from '../../src/app.catalogue';
import { DIGEST_FIELDS, NEWEST_DIGEST_VERSION } from '../../packages/client/src/generated/digests';
import { MIRROR_COLUMNS } from '../../packages/client/src/generated/mirror-columns';
import {
  DIGEST_VERSIONS,
  NEWEST_DIGEST_VERSION as SERVICE_NEWEST,
} from '../../src/catalogue/digest-versions';

/**
 * One declaration all the way into the client (issue 53, item 3): what the client knows of the
 * digests and of the field that dates a record is generated from the document's `x-` extensions,
 * which the service writes from its catalogue; the generator refuses what it cannot place.
 */
const ROOT = path.join(__dirname, '../..');
const GENERATOR = path.join(ROOT, 'packages/client/scripts/generate-types.mjs');
const DOCUMENT = JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')) as {
  paths: Record<string, { get: Record<string, unknown> }>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
};

describe('the client generated from the document', () => {
  it("should hold every digested resource's fields per version exactly as the service declares them", () => {
    const declared = Object.fromEntries(
      CATALOGUE.flatMap((r) => (r.digest ? [[r.route, r.digest.fields]] : [])),
    );
    const generated = Object.fromEntries(
      Object.entries(DIGEST_FIELDS).map(([route, versions]) => [
        route,
        Object.fromEntries(DIGEST_VERSIONS.map((v) => [v, [...versions[v]]])),
      ]),
    );
    expect(generated).toEqual(JSON.parse(JSON.stringify(declared)));
    expect(NEWEST_DIGEST_VERSION).toBe(SERVICE_NEWEST);
  });

  it('should type every exported field as its record schema says (Parquet), none by default', () => {
    const kinds = Object.fromEntries(
      MIRROR_COLUMNS.payments.columns.map((c) => [c.field, c.value]),
    );
    expect(kinds).toMatchObject({
      id: { kind: 'id' },
      paidAt: { kind: 'local-time' },
      paidAtUtc: { kind: 'instant' },
      businessDate: { kind: 'date' },
      amount: { kind: 'decimal', precision: 15, scale: 2 },
      reference: { kind: 'text' },
    });
    const taxRate = MIRROR_COLUMNS.sales.nested.lines.find((c) => c.field === 'taxRate');
    expect(taxRate?.value).toEqual({ kind: 'decimal', precision: 5, scale: 2 });
  });

  it("should date each mirrored table by its resource's declared field", () => {
    const generated = Object.fromEntries(
      Object.entries(MIRROR_COLUMNS).map(([route, { dayField }]) => [route, dayField]),
    );
    expect(generated).toEqual(Object.fromEntries(CATALOGUE.map((r) => [r.route, r.datedBy])));
  });

  describe('a document it cannot place', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), 'generate-types-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** The generator's check against the document as `edit` leaves it. */
    const generateFrom = (name: string, edit: (doc: typeof DOCUMENT) => void) => {
      const doc = structuredClone(DOCUMENT);
      edit(doc);
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(doc));
      return spawnSync(process.execPath, [GENERATOR, '--check', '--document', file], {
        encoding: 'utf8',
      });
    };

    it('should stop on a digest without its fields, naming it', () => {
      const run = generateFrom('no-fields', (doc) => {
        delete doc.paths['/api/v1.0/payments/digest'].get['x-digest-fields'];
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('/api/v1.0/payments/digest');
      expect(run.stderr).toContain('x-digest-fields');
    });

    it('should stop on a digest version naming a field its record lacks', () => {
      const run = generateFrom('unknown-field', (doc) => {
        const fields = doc.paths['/api/v1.0/sales/digest'].get['x-digest-fields'] as Record<
          string,
          string[]
        >;
        fields['2'].push('terminalId');
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('terminalId');
    });

    it('should stop on a list that names no field dating its records', () => {
      const run = generateFrom('undated', (doc) => {
        delete doc.paths['/api/v1.0/cash-movements'].get['x-dated-by'];
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('/api/v1.0/cash-movements');
    });

    it('should stop on a decimal of an exported record without its precision, naming it', () => {
      const run = generateFrom('no-precision', (doc) => {
        delete doc.components.schemas.Payment.properties.amount['x-decimal-precision'];
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('Payment.amount');
      expect(run.stderr).toContain('x-decimal-precision');
    });

    it('should stop on a string of a format it has no column type for, never making it text', () => {
      const run = generateFrom('unknown-format', (doc) => {
        doc.components.schemas.CashMovement.properties.reason.format = 'uuid';
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('CashMovement.reason has the format uuid');
    });

    it('should pass the document the service writes', () => {
      const run = generateFrom('as-written', () => undefined);
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    });
  });
});
