import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const ROOT = path.join(__dirname, '../..');

jest.setTimeout(180_000);

/** What a project that installed the tarball runs: both module systems, the same calls. */
const CJS = `
const { PosReadClient, AuthenticationError } = require('@pos-read-api/client');
const client = new PosReadClient({ baseUrl: process.env.BASE_URL, username: process.env.POS_READ_USERNAME, password: process.env.POS_READ_PASSWORD });
client.shops.list().then((shops) => console.log(JSON.stringify({ kind: 'cjs', shops: shops.map((s) => s.code), typed: typeof AuthenticationError })));
`;
const ESM = `
import { PosReadClient, RateLimitError } from '@pos-read-api/client';
const client = new PosReadClient({ baseUrl: process.env.BASE_URL, username: process.env.POS_READ_USERNAME, password: process.env.POS_READ_PASSWORD });
const shops = await client.shops.list();
console.log(JSON.stringify({ kind: 'esm', shops: shops.map((s) => s.code), typed: typeof RateLimitError }));
`;
const TYPED = `
import { PosReadClient, type Sale } from '@pos-read-api/client';
export async function firstTotal(client: PosReadClient): Promise<string | undefined> {
  for await (const sale of client.sales.list({ shopCode: 'S001', from: '2026-03-01', to: '2026-04-01' })) {
    const total: Sale['totalGross'] = sale.totalGross;
    return total;
  }
  return undefined;
}
`;

describeEachDatabase(
  'The npm pack tarball of @pos-read-api/client, installed into a new project (issue 15)',
  (ctx) => {
    let app: TestApp;
    let project: string;
    let env: NodeJS.ProcessEnv;
    let shop: string;

    beforeAll(async () => {
      shop = await createShop(ctx.db.db);
      const user = await createUser(ctx.db.db, { shops: [shop] });
      app = await startTestApp(ctx.db);
      project = mkdtempSync(path.join(tmpdir(), 'pos-read-tarball-'));
      const packed = JSON.parse(
        execFileSync(
          'npm',
          ['pack', '-w', '@pos-read-api/client', '--json', '--pack-destination', project],
          {
            cwd: ROOT,
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        ),
      ) as Array<{ filename: string }>;
      writeFileSync(
        path.join(project, 'package.json'),
        JSON.stringify({ name: 'tarball-user', private: true }),
      );
      execFileSync(
        'npm',
        ['install', '--offline', '--no-audit', '--no-fund', `./${packed[0].filename}`],
        {
          cwd: project,
          stdio: 'pipe',
        },
      );
      env = {
        PATH: process.env.PATH,
        BASE_URL: app.baseUrl,
        POS_READ_BASE_URL: app.baseUrl,
        POS_READ_USERNAME: user.username,
        POS_READ_PASSWORD: user.password,
      };
    });
    afterAll(async () => {
      await app?.close();
      if (project) rmSync(project, { recursive: true, force: true });
    });

    /** Runs a program of the project; asynchronously, as the service answers in this process. */
    const runIn = (file: string, args: string[]) =>
      new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
        execFile(file, args, { cwd: project, env, encoding: 'utf8' }, (error, stdout, stderr) =>
          resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    const node = (args: string[]) => runIn(process.execPath, args);

    it('should work with require (CommonJS build)', async () => {
      writeFileSync(path.join(project, 'use.cjs'), CJS);
      const result = await node(['use.cjs']);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({ kind: 'cjs', shops: [shop], typed: 'function' });
    });

    it('should work with import (ES module build)', async () => {
      writeFileSync(path.join(project, 'use.mjs'), ESM);
      const result = await node(['use.mjs']);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({ kind: 'esm', shops: [shop], typed: 'function' });
    });

    it('should ship its types: a TypeScript program using the client type-checks', () => {
      const file = path.join(project, 'typed.ts');
      writeFileSync(file, TYPED);
      const program = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
        types: ['node'],
      });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors).toEqual([]);
    });

    it('should install the pos-read bin, which runs and refuses a password on the command line', async () => {
      const bin = path.join(project, 'node_modules/.bin/pos-read');
      const shops = await runIn(bin, ['shops']);
      expect(shops.status).toBe(0);
      expect(JSON.parse(shops.stdout)).toMatchObject({ code: shop });
      const refused = await runIn(bin, ['shops', '--password', 'on-argv-secret']);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/never taken from the command line/);
    });
  },
);
