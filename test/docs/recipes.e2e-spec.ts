import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadSqliteDriver } from '../../src/database/sqlite-driver';
import { spawnDemoAsNpmStart } from '../support/demo-process';
import { type ServiceProcess, stopService } from '../support/service-process';
import { DEMO_USERS } from '../../tools/seed/demo-data';
import {
  applyRecipe,
  costOf,
  FIELD_RECIPE,
  NEXT_DIGEST_VERSION,
  RESOURCE_RECIPE,
} from './support/recipes';

/**
 * The recipes are a test (issue 53, item 4): a copy of the repository gets the field and the
 * resource of docs/architecture.md's recipes by the hand edits of support/recipes.ts alone, is
 * regenerated and built as a developer would (`npm run build`, `openapi`, `sql:write`,
 * `client:generate`, `client:build`), and then the API, the document, the client, the mirror,
 * Parquet and the digests all carry them. docs/architecture.md quotes the counts measured here.
 */
const ROOT = path.resolve(__dirname, '../..');
/** docs/architecture.md as prose: emphasis dropped, lines joined. */
const ARCHITECTURE = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8')
  .replace(/\*\*/g, '')
  .replace(/\s+/g, ' ');
const DEMO = DEMO_USERS.find((u) => u.username === 'demo')!;

type Doc = {
  paths: Record<
    string,
    {
      get?: Record<string, unknown> & {
        parameters?: Array<{ name: string; schema: { enum?: number[] } }>;
      };
    }
  >;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
};

/** Runs a program of the copy, failing with its output when it fails. */
function run(cwd: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
  if (result.status !== 0) {
    throw new Error(
      `${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

describe('the recipes of docs/architecture.md, done in a copy', () => {
  const field = costOf(FIELD_RECIPE);
  const resource = costOf(RESOURCE_RECIPE);

  it('should cost a field at most 5 files in 3 folders, and a resource 3 new files and 4 edits', () => {
    expect(field.created).toBe(0);
    expect(field.edited).toBeLessThanOrEqual(5);
    expect(field.folders).toBeLessThanOrEqual(3);
    expect(resource.created).toBeLessThanOrEqual(3);
    expect(resource.edited).toBeLessThanOrEqual(4);
  });

  it('should have docs/architecture.md quote the counts measured here', () => {
    expect(ARCHITECTURE).toContain(
      `a new field costs ${field.edited} files edited by hand in ${field.folders} folders`,
    );
    expect(ARCHITECTURE).toContain(
      `a new resource ${resource.created} new files and ${resource.edited} edits`,
    );
  });

  describe('built and running', () => {
    let copy: string;
    let data: string;
    let work: string;
    let service: ServiceProcess | undefined;
    let doc: Doc;
    let token: string;

    const get = async (route: string) => {
      const res = await fetch(`${service!.baseUrl}/api/v1.0/${route}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const posRead = (args: string[]) =>
      spawnSync(
        process.execPath,
        [path.join(copy, 'packages/client/scripts/pos-read.mjs'), ...args],
        {
          cwd: work,
          encoding: 'utf8',
          env: {
            ...process.env,
            POS_READ_BASE_URL: service!.baseUrl,
            POS_READ_USERNAME: DEMO.username,
            POS_READ_PASSWORD: DEMO.password,
          },
          timeout: 120_000,
        },
      );

    beforeAll(async () => {
      copy = mkdtempSync(path.join(tmpdir(), 'pos-api-recipes-'));
      data = path.join(copy, '.demo-data');
      work = path.join(copy, '.work');
      const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
        cwd: ROOT,
        encoding: 'utf8',
      })
        .split('\0')
        .filter((f) => f && !f.startsWith('test/') && !f.startsWith('bench/'));
      for (const file of files) {
        try {
          cpSync(path.join(ROOT, file), path.join(copy, file));
        } catch {
          // A file listed but deleted in the working tree: not part of the copy.
        }
      }
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
      mkdirSync(data);
      mkdirSync(work);
      applyRecipe(copy, FIELD_RECIPE);
      applyRecipe(copy, RESOURCE_RECIPE);
      run(copy, ['node_modules/@nestjs/cli/bin/nest.js', 'build']);
      run(copy, ['dist/tools/openapi/openapi.cli.js']);
      run(copy, ['dist/tools/sql/catalogue-sql.cli.js']);
      run(copy, ['packages/client/scripts/generate-types.mjs']);
      run(path.join(copy, 'packages/client'), ['scripts/build.mjs']);
      doc = JSON.parse(readFileSync(path.join(copy, 'docs/openapi.json'), 'utf8')) as Doc;
      service = await spawnDemoAsNpmStart(data, copy);
      // Rows of the new field and the new resource, written behind the service as the back office would.
      const Database = loadSqliteDriver() as new (file: string) => {
        exec(sql: string): void;
        close(): void;
      };
      const file = readdirSync(data).find((f) => f.endsWith('.sqlite'))!;
      const db = new Database(path.join(data, file));
      db.exec(
        "INSERT INTO pos_gift_card_loads (shop_code, register_code, loaded_at, card_number, amount, currency) VALUES ('SHOP001', 'R1', '2026-03-01 11:00:00.000', 'GC-1', '25.00', 'EUR');" +
          "UPDATE pos_payments SET terminal_id = 'T-07' WHERE id = 1;",
      );
      db.close();
      const res = await fetch(`${service.baseUrl}/api/v1.0/Token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: DEMO.username, password: DEMO.password }),
      });
      token = ((await res.json()) as { token: string }).token;
    }, 600_000);

    afterAll(async () => {
      await stopService(service);
      if (copy) rmSync(copy, { recursive: true, force: true });
    });

    it('should document the field, the resource and the next digest version', () => {
      expect(doc.components.schemas.Payment.properties.terminalId).toMatchObject({
        type: 'string',
        nullable: true,
      });
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1.0/gift-card-loads',
          '/api/v1.0/gift-card-loads/feed',
          '/api/v1.0/gift-card-loads/digest',
        ]),
      );
      const fields = (route: string) =>
        doc.paths[`/api/v1.0/${route}/digest`].get!['x-digest-fields'] as Record<string, string[]>;
      const next = String(NEXT_DIGEST_VERSION);
      const newest = String(NEXT_DIGEST_VERSION - 1);
      expect(fields('payments')[next]).toEqual([...fields('payments')[newest], 'terminalId']);
      // Every other resource's fields are carried forward by themselves.
      expect(fields('sales')[next]).toEqual(fields('sales')[newest]);
      expect(fields('cash-movements')[next]).toEqual(fields('cash-movements')[newest]);
      const version = doc.paths['/api/v1.0/sales/digest'].get!.parameters!.find(
        (p) => p.name === 'Version',
      );
      expect(version?.schema.enum).toContain(NEXT_DIGEST_VERSION);
    });

    it('should serve them: the field in the records, the resource listed, its digest', async () => {
      const payments = await get('payments?ShopCode=SHOP001&Limit=1');
      expect(payments.body.data).toMatchObject([{ id: '1', terminalId: 'T-07' }]);
      const loads = await get('gift-card-loads?ShopCode=SHOP001');
      expect(loads.body.data).toMatchObject([
        { shopCode: 'SHOP001', loadedAt: '2026-03-01T11:00:00.000', amount: '25.00' },
      ]);
      const digest = await get(
        'gift-card-loads/digest?ShopCode=SHOP001&From=2026-03-01&To=2026-03-02',
      );
      expect(digest).toMatchObject({
        status: 200,
        body: { version: NEXT_DIGEST_VERSION, data: [{ date: '2026-03-01', count: 1 }] },
      });
    });

    it('should mirror and verify them with the regenerated client', () => {
      const into = path.join(work, 'mirror.sqlite');
      const period = ['--shop', 'SHOP001', '--from', '2026-03-01', '--to', '2026-03-02'];
      const mirror = posRead(['mirror', '--into', into, ...period]);
      expect({ status: mirror.status, stderr: mirror.stderr }).toMatchObject({ status: 0 });
      expect(mirror.stderr).toMatch(/gift_card_loads 1/);
      const Database = loadSqliteDriver() as new (file: string) => {
        prepare(sql: string): { all(): unknown[] };
        close(): void;
      };
      const db = new Database(into);
      expect(db.prepare('SELECT card_number, amount FROM gift_card_loads').all()).toEqual([
        { card_number: 'GC-1', amount: '25.00' },
      ]);
      expect(db.prepare('SELECT terminal_id FROM payments WHERE id = 1').all()).toEqual([
        { terminal_id: 'T-07' },
      ]);
      db.close();
      const verify = posRead(['verify', '--into', into, ...period]);
      expect({ status: verify.status, stdout: verify.stdout }).toEqual({ status: 0, stdout: '' });
    });

    it('should export them to Parquet, typed', async () => {
      const out = path.join(work, 'parquet');
      const args = ['--format', 'parquet', '--out', out, '--shop', 'SHOP001'];
      for (const what of ['gift-card-loads', 'payments']) {
        const run = posRead([
          'export',
          what,
          ...args,
          '--from',
          '2026-03-01',
          '--to',
          '2026-03-02',
        ]);
        expect({ what, status: run.status, stderr: run.stderr }).toMatchObject({ status: 0 });
      }
      const duck = await DuckDBInstance.create(':memory:');
      const connection = await duck.connect();
      const typesOf = async (table: string) =>
        Object.fromEntries(
          (
            (
              await connection.runAndReadAll(
                `DESCRIBE SELECT * FROM read_parquet('${path.join(out, table, '**', '*.parquet')}')`,
              )
            ).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>
          ).map((t) => [t.column_name, t.column_type]),
        );
      try {
        expect(await typesOf('gift_card_loads')).toMatchObject({
          id: 'BIGINT',
          loadedAt: 'TIMESTAMP',
          amount: 'DECIMAL(15,2)',
          cardNumber: 'VARCHAR',
        });
        expect(await typesOf('payments')).toMatchObject({ terminalId: 'VARCHAR' });
      } finally {
        connection.closeSync();
        duck.closeSync();
      }
    });
  });
});
