import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { CLIENT_PROGRAM } from './client-program';
import { mismatches } from './schema-check';

const ROOT = path.join(__dirname, '../..');
const GENERATOR = path.join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js');
const TOKEN_PATH = '/api/v1.0/Token';
const REPORT_PATH = '/api/v1.0/TransactionDetailReport';

interface Program {
  useTheApi(baseUrl: string, user: string, password: string): Promise<any>;
  readOnePage(baseUrl: string, user: string, password: string): Promise<any>;
}

/**
 * Generates a client with @hey-api/openapi-ts (types, SDK functions, its fetch client) from a
 * document file into a folder, writes the program next to it and returns the program's path.
 */
function generateClient(documentFile: string, out: string): string {
  execFileSync(
    process.execPath,
    [
      GENERATOR,
      '-i',
      documentFile,
      '-o',
      out,
      '-c',
      '@hey-api/client-fetch',
      '-s',
      '--no-log-file',
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
  const programFile = path.join(out, 'program.ts');
  writeFileSync(programFile, CLIENT_PROGRAM);
  return programFile;
}

/** Type-checks the program and the generated client; returns the compiler's complaints. */
function typeCheck(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: true,
    esModuleInterop: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** The document with the contract's known defect: an API key in Authorization instead of bearer. */
function withApiKeyScheme(document: any): any {
  const copy = structuredClone(document);
  for (const name of Object.keys(copy.components.securitySchemes)) {
    copy.components.securitySchemes[name] = { type: 'apiKey', in: 'header', name: 'Authorization' };
  }
  return copy;
}

const ids = (records: Array<{ id: string }>) => records.map((r) => r.id);

describeEachDatabase('A client generated from the OpenAPI document (issue 5)', (ctx) => {
  let api: TestApp;
  let document: any;
  let user: { username: string; password: string };
  let bearerSdk: string;
  let apiKeySdk: string;
  let compilerErrors: string[];
  let bearer: Program;
  let apiKey: Program;
  let result: any;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 5,
      shops: 2,
      days: 2,
      salesPerDay: 12,
      startDate: '2026-03-02',
    });
    user = await createUser(ctx.db.db, { shops: seeded.shopCodes });
    api = await startTestApp(ctx.db);
    document = (await http(api.baseUrl, '/docs/openapi.json')).body;

    // test-artifacts/ is git-ignored. The generator cleans its output folders, so the documents
    // sit beside them.
    const dir = path.join(ROOT, 'test-artifacts', 'generated-client', ctx.kind);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const bearerDocument = path.join(dir, 'openapi.json');
    const apiKeyDocument = path.join(dir, 'openapi-api-key.json');
    writeFileSync(bearerDocument, JSON.stringify(document, null, 2));
    writeFileSync(apiKeyDocument, JSON.stringify(withApiKeyScheme(document), null, 2));
    const bearerProgram = generateClient(bearerDocument, path.join(dir, 'bearer'));
    const apiKeyProgram = generateClient(apiKeyDocument, path.join(dir, 'api-key'));
    bearerSdk = readFileSync(path.join(dir, 'bearer', 'sdk.gen.ts'), 'utf8');
    apiKeySdk = readFileSync(path.join(dir, 'api-key', 'sdk.gen.ts'), 'utf8');
    compilerErrors = typeCheck(bearerProgram);

    // Jest compiles the program and the generated client like any other TypeScript file.
    bearer = (await import(bearerProgram)) as Program;
    apiKey = (await import(apiKeyProgram)) as Program;
    result = await bearer.useTheApi(api.baseUrl, user.username, user.password);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('should generate an SDK function for every operation, with the bearer security of the document', () => {
    const operations = Object.values(document.paths).flatMap((item: any) => Object.values(item));
    expect(operations).toHaveLength(18);
    for (const operation of operations as Array<{ operationId: string }>) {
      expect(bearerSdk).toContain(`export const ${operation.operationId} =`);
    }
    // Every operation but the token one carries the scheme the client applies.
    expect(bearerSdk.match(/security: \[\{ scheme: 'bearer', type: 'http' \}\]/g)).toHaveLength(17);
    expect(bearerSdk).not.toMatch(/apiKey/);
  });

  it('should type-check a program that uses the generated client (operations, parameters and fields exist)', () => {
    expect(compilerErrors).toEqual([]);
  });

  it("should send `Authorization: Bearer <token>` through the client's own auth option, and nothing on the token route", () => {
    const token: string = result.token;
    expect(result.expiration).toMatch(/Z$/);
    const tokenCalls = result.sent.filter((r: any) => r.path === TOKEN_PATH);
    expect(tokenCalls).toEqual([{ method: 'POST', path: TOKEN_PATH, authorization: null }]);
    const dataCalls = result.sent.filter((r: any) => r.path !== TOKEN_PATH);
    expect(dataCalls).toHaveLength(15);
    for (const call of dataCalls) expect(call.authorization).toBe(`Bearer ${token}`);
  });

  it('should read two pages of sales, payments, cash movements and drawer sessions by following nextCursor', () => {
    expect(result.statuses).toEqual({
      sales: [200, 200],
      payments: [200, 200],
      cashMovements: [200, 200],
      cashDrawerSessions: [200, 200],
    });
    for (const [first, second] of Object.values<Array<Array<{ id: string }>>>(result.pages)) {
      expect(first).toHaveLength(3);
      expect(second).toHaveLength(3);
      const firstIds = new Set(ids(first));
      expect(ids(second).filter((id) => firstIds.has(id))).toEqual([]);
    }
    for (const [first] of Object.values<string[]>(result.nextCursors)) {
      expect(first).toEqual(expect.any(String));
    }
    expect(result.firstLineGross).toMatch(/^-?\d+\.\d{2}$/);
    expect(result.shopCodes).toHaveLength(2);
  });

  it('should read the feeds in arrival order, with a cursor that is never null, in the schemas of the lists', () => {
    const schemas = document.components.schemas;
    const { feeds } = result;
    expect(feeds.statuses).toEqual([200, 200, 200, 200]);
    const [first, second] = feeds.sales as Array<Array<{ id: string }>>;
    const fed = [...ids(first), ...ids(second)].map(Number);
    expect(fed).toHaveLength(6);
    expect(fed).toEqual([...fed].sort((a, b) => a - b));
    expect(feeds.caughtUp).toEqual([false, false]);
    expect(feeds.nextCursor).toEqual(expect.any(String));
    const check = (records: unknown[], name: string) =>
      records.flatMap((r) => mismatches(r, schemas[name], schemas));
    expect(check(feeds.sales.flat(), 'Sale')).toEqual([]);
    expect(check(feeds.payments, 'Payment')).toEqual([]);
    expect(check(feeds.cashMovements, 'CashMovement')).toEqual([]);
    expect(feeds.payments).toHaveLength(3);
  });

  it('should receive records that conform to the schemas of the document', () => {
    const schemas = document.components.schemas;
    const check = (pages: unknown[][], name: string) =>
      pages.flat().flatMap((r) => mismatches(r, schemas[name], schemas));
    expect(check(result.pages.sales, 'Sale')).toEqual([]);
    expect(check(result.pages.payments, 'Payment')).toEqual([]);
    expect(check(result.pages.cashMovements, 'CashMovement')).toEqual([]);
    expect(check(result.pages.cashDrawerSessions, 'CashDrawerSession')).toEqual([]);
  });

  it('should call TransactionDetailReport in JSON, with its totals, and in CSV', () => {
    const schemas = document.components.schemas;
    const ok = document.paths[REPORT_PATH].get.responses[200].content;
    expect(Object.keys(ok).sort()).toEqual(['application/json', 'text/csv']);
    const { report } = result;
    expect(report.status).toBe(200);
    expect(report.body.rows.length).toBeGreaterThan(0);
    expect(report.body.totals.sales).toBeGreaterThan(0);
    expect(report.body.totals.lines).toBeGreaterThan(0);
    expect(report.body.totals.byCurrency.length).toBeGreaterThan(0);
    expect(mismatches(report.body, ok['application/json'].schema, schemas)).toEqual([]);
    expect(report.csvStatus).toBe(200);
    expect(report.csvType).toMatch(/^text\/csv/);
    expect(typeof report.csv).toBe('string');
    expect(report.csv.split('\r\n')[0]).toMatch(/^shopCode,/);
  });

  it('should send the raw token and get 401 when the same program uses a client generated from the document with an API key instead (the contract defect, Authentication rule 2)', async () => {
    // The generator copies the scheme too: a header named Authorization (its default place).
    expect(
      apiKeySdk.match(/security: \[\{ name: 'Authorization', type: 'apiKey' \}\]/g),
    ).toHaveLength(17);

    const withKey = await apiKey.readOnePage(api.baseUrl, user.username, user.password);
    const keyRead = withKey.sent.find((r: any) => r.path !== TOKEN_PATH);
    expect(keyRead.authorization).toBe(withKey.token);
    expect(withKey.status).toBe(401);

    const withBearer = await bearer.readOnePage(api.baseUrl, user.username, user.password);
    const bearerRead = withBearer.sent.find((r: any) => r.path !== TOKEN_PATH);
    expect(bearerRead.authorization).toBe(`Bearer ${withBearer.token}`);
    expect(withBearer.status).toBe(200);
  });
});
