import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { partialFileOf, stateFileOf } from '../../packages/client/src/cli/export';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { Wire } from './support/wire';

// Sign-ins (argon2) and several requests each: slow on a loaded machine.
jest.setTimeout(60_000);

const MONTH = ['--from', '2026-03-01', '--to', '2026-04-01'];
const modeOf = (file: string): number => statSync(file).mode & 0o777;

/**
 * What pos-read writes holds business data: readable by the user only (0600) whatever the umask,
 * and the resume state is replaced through a temporary file it creates itself (exclusively, with
 * a name nobody can plant a symbolic link under in advance).
 */
describeEachDatabase("pos-read: the files it writes are the user's only", (ctx) => {
  let app: TestApp;
  let env: Record<string, string>;
  let shop: string;
  let dir: string;
  let umask: number;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 27,
      shops: 1,
      days: 3,
      salesPerDay: 10,
      startDate: '2026-03-10',
    });
    shop = seeded.shopCodes[0];
    const user = await createUser(ctx.db.db, { shops: [shop] });
    env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
    app = await startTestApp(ctx.db);
    dir = mkdtempSync(path.join(tmpdir(), 'pos-read-modes-'));
    umask = process.umask(0o022); // the usual umask: files 0644 unless the tool says otherwise
  });
  afterAll(async () => {
    process.umask(umask);
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should create the export, the report and the resume state 0600', async () => {
    const out = path.join(dir, 'sales.csv');
    const controller = new AbortController();
    const wire = new Wire(app.baseUrl);
    // GET /shops (the --shop is checked first), then two pages.
    const stopAfterTwoPages: typeof fetch = async (input, init) => {
      if (wire.dataRequests().length === 3) controller.abort();
      return wire.fetch(input, init);
    };
    const args = ['export', 'sales', '--shop', shop, ...MONTH, '--limit', '5', '--format', 'csv'];
    const interrupted = await posRead(wire, [...args, '--out', out], {
      env,
      signal: controller.signal,
      client: { fetch: stopAfterTwoPages },
    });
    expect(interrupted.code).toBe(130);
    expect(modeOf(partialFileOf(out))).toBe(0o600);
    expect(modeOf(stateFileOf(out))).toBe(0o600);
    const report = path.join(dir, 'report.csv');
    const reported = await posRead(
      new Wire(app.baseUrl),
      ['report', ...MONTH, '--csv', '--out', report],
      { env },
    );
    expect(reported.code).toBe(0);
    expect(modeOf(report)).toBe(0o600);
  });

  it('should make an existing output file 0600 when a fresh export replaces it (--force)', async () => {
    const out = path.join(dir, 'existing.ndjson');
    writeFileSync(out, 'old\n', { mode: 0o644 });
    const args = ['export', 'payments', '--shop', shop, ...MONTH, '--out', out, '--force'];
    expect((await posRead(new Wire(app.baseUrl), args, { env })).code).toBe(0);
    expect(modeOf(out)).toBe(0o600);
  });

  it('should make an existing output file 0600 when a report replaces it', async () => {
    const out = path.join(dir, 'existing-report.csv');
    writeFileSync(out, 'old\n', { mode: 0o644 });
    const args = ['report', ...MONTH, '--csv', '--out', out];
    expect((await posRead(new Wire(app.baseUrl), args, { env })).code).toBe(0);
    expect(modeOf(out)).toBe(0o600);
    expect(readFileSync(out, 'utf8')).not.toMatch(/^old/);
  });

  it('should leave an existing output file as it was when the report is refused', async () => {
    const out = path.join(dir, 'kept-report.csv');
    writeFileSync(out, 'old\n', { mode: 0o644 });
    const backwards = [
      'report',
      '--from',
      '2026-04-01',
      '--to',
      '2026-03-01',
      '--csv',
      '--out',
      out,
    ];
    expect((await posRead(new Wire(app.baseUrl), backwards, { env })).code).not.toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('old\n');
  });

  it('should not write through a symbolic link planted at the old fixed temporary name', async () => {
    const out = path.join(dir, 'planted.csv');
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    symlinkSync(victim, `${stateFileOf(out)}.tmp`);
    const args = ['export', 'sales', '--shop', shop, ...MONTH, '--limit', '5', '--out', out];
    expect((await posRead(new Wire(app.baseUrl), args, { env })).code).toBe(0);
    expect(statSync(victim).size).toBe('untouched\n'.length);
    expect(existsSync(stateFileOf(out))).toBe(false);
    // No temporary file of its own is left behind either.
    expect(
      readdirSync(dir).filter((f) => f.startsWith('planted.csv.pos-read-resume.json.')),
    ).toEqual(['planted.csv.pos-read-resume.json.tmp']);
  });
});
