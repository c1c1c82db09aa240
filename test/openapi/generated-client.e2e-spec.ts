import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { seedBusinessData } from '../../src/database/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { clientProgram } from './client-program';
import { mismatches } from './schema-check';

const ROOT = path.join(__dirname, '../..');
type UseTheApi = (
  baseUrl: string,
  document: unknown,
  user: string,
  password: string,
) => Promise<any>;
const REPORT_PATH = '/api/v1.0/TransactionDetailReport';

/** Generates the client types with openapi-typescript, the maintained generator, from a file. */
function generateTypes(documentFile: string, out: string): void {
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), documentFile, '-o', out],
    { stdio: 'pipe' },
  );
}

/** Type-checks the program against the generated types; returns the compiler's complaints. */
function typeCheck(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    esModuleInterop: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describeEachDatabase('A client generated from the OpenAPI document (issue 5)', (ctx) => {
  let api: TestApp;
  let document: any;
  let result: any;
  let generatedTypes: string;
  let compilerErrors: string[];

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 5,
      shops: 2,
      days: 2,
      salesPerDay: 12,
      startDate: '2026-03-02',
    });
    const user = await createUser(ctx.db.db, { shops: seeded.shopCodes });
    api = await startTestApp(ctx.db);
    document = (await http(api.baseUrl, '/docs/openapi.json')).body;

    // test-artifacts/ is git-ignored; inside the project so the program resolves openapi-fetch.
    const dir = path.join(ROOT, 'test-artifacts', 'generated-client', ctx.kind);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(document, null, 2));
    generateTypes(path.join(dir, 'openapi.json'), path.join(dir, 'schema.d.ts'));
    generatedTypes = readFileSync(path.join(dir, 'schema.d.ts'), 'utf8');
    const programFile = path.join(dir, 'client.ts');
    writeFileSync(programFile, clientProgram(REPORT_PATH in document.paths));
    compilerErrors = typeCheck(programFile);

    // Jest compiles the program like any other TypeScript file, then it runs against the app.
    const { useTheApi } = (await import(programFile)) as { useTheApi: UseTheApi };
    result = await useTheApi(api.baseUrl, document, user.username, user.password);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('should generate types for every operation of the document', () => {
    for (const route of Object.keys(document.paths)) expect(generatedTypes).toContain(`"${route}"`);
    expect(generatedTypes).toMatch(/Sale: \{/);
  });

  it('should type-check a program that uses the generated client (routes, parameters and fields exist)', () => {
    expect(compilerErrors).toEqual([]);
  });

  it("should send `Authorization: Bearer <token>` through the client's own bearer support, and nothing on the token route", () => {
    const token: string = result.token;
    expect(result.expiration).toMatch(/Z$/);
    const tokenCalls = result.sent.filter((r: any) => r.path === '/api/v1.0/Token');
    expect(tokenCalls).toEqual([{ method: 'POST', path: '/api/v1.0/Token', authorization: null }]);
    const dataCalls = result.sent.filter((r: any) => r.path !== '/api/v1.0/Token');
    expect(dataCalls.length).toBeGreaterThanOrEqual(7);
    for (const call of dataCalls) expect(call.authorization).toBe(`Bearer ${token}`);
  });

  it('should read two pages of sales, payments and cash movements with the cursor', () => {
    expect(result.statuses).toEqual({
      sales: [200, 200],
      payments: [200, 200],
      cashMovements: [200, 200],
    });
    for (const records of [result.sales, result.payments, result.cashMovements]) {
      expect(records).toHaveLength(6);
      expect(new Set(records.map((r: any) => r.id)).size).toBe(6);
    }
    const cursors: string[][] = Object.values(result.nextCursors);
    for (const [first] of cursors) {
      expect(first).toEqual(expect.any(String));
    }
    expect(result.firstLineGross).toMatch(/^-?\d+\.\d{2}$/);
    expect(result.shopCodes).toHaveLength(2);
  });

  it('should receive records that conform to the schemas of the document', () => {
    const schemas = document.components.schemas;
    const check = (records: unknown[], name: string) =>
      records.flatMap((r) => mismatches(r, schemas[name], schemas));
    expect(check(result.sales, 'Sale')).toEqual([]);
    expect(check(result.payments, 'Payment')).toEqual([]);
    expect(check(result.cashMovements, 'CashMovement')).toEqual([]);
  });

  it('should call TransactionDetailReport, in JSON and in CSV, when the API has it', () => {
    if (!(REPORT_PATH in document.paths)) {
      expect(result.report).toBeNull();
      return;
    }
    const schemas = document.components.schemas;
    const ok = document.paths[REPORT_PATH].get.responses[200].content;
    expect(Object.keys(ok).sort()).toEqual(['application/json', 'text/csv']);
    expect(result.report.status).toBe(200);
    expect(result.report.body.rows.length).toBeGreaterThan(0);
    expect(mismatches(result.report.body, ok['application/json'].schema, schemas)).toEqual([]);
    expect(result.report.csvStatus).toBe(200);
    expect(result.report.csvType).toMatch(/^text\/csv/);
    expect(result.report.csv.split('\r\n')[0]).toMatch(/^shopCode,/);
  });
});
