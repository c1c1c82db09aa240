import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { useDemoAsNpmStart } from '../support/demo-process';
import {
  binsLinkedByNpmCi,
  fencedBlocks,
  fetchablePackages,
  npmScripts,
  ReadmeCommand,
  readmeCommands,
  ROOT,
} from './readme-commands';

jest.setTimeout(300_000);

/**
 * The README's commands this spec does not run, each with where it is run instead. A command
 * that is in neither this list nor run here fails the spec: a new README line gets a decision.
 */
const RUN_ELSEWHERE: Array<[RegExp, string]> = [
  [/^npm ci && npm start$/, 'npm start: this spec starts its build (start-development.js)'],
  [/^npm ci && npm test$/, 'npm test: the suite this spec is part of'],
  [/^export (DATABASE_URL|APP_ENV|JWT_PRIVATE_KEY_FILE)=/, 'production settings: .ci/container'],
  [/^mariadb -uroot |^export DATABASE_URL=mysql:\/\/root@/, '.ci/run: migrations and seed'],
  [/^npm run (build && npm run migration:run|seed -- )/, '.ci/run: migrations and seed'],
  [/^docker (build|run) /, '.ci/container builds and runs the image (podman)'],
  [/^sh tools\/image\/build\.sh /, 'test/operations/dockerfile.e2e-spec.ts: its build arguments'],
  [/^cp \.env\.example \.env$/, 'test/operations/env-examples.e2e-spec.ts starts .env.example'],
  [/^npm run build$/, '.ci/run: build'],
  [/npm run backoffice -- /, 'test/operations/backoffice-admin.e2e-spec.ts'],
];

const runElsewhere = (command: ReadmeCommand) =>
  RUN_ELSEWHERE.some(([pattern]) => pattern.test(command.text));

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: object })
    .scripts,
);

describe("README.md's commands run what this repository builds, nothing fetched from the registry (issue 22)", () => {
  it('should find the commands of its fenced bash blocks', () => {
    expect(readmeCommands().length).toBeGreaterThan(10);
  });

  it.each([['README.md'], ['packages/client/README.md']])(
    '%s: its commands should launch with npx (or npm exec, dlx, bunx) only a bin npm ci links from the lock file or a committed file, or with npx --no',
    (file) => {
      const linked = binsLinkedByNpmCi();
      const launched = readmeCommands(path.join(ROOT, file)).flatMap(({ text }) =>
        fetchablePackages(text),
      );
      expect(launched.filter((name) => !linked.has(name))).toEqual([]);
    },
  );

  it('should name with npm run only scripts package.json has', () => {
    const named = npmScripts(README.replace(/`/g, ' '));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((script) => !SCRIPTS.includes(script))).toEqual([]);
  });
});

/** docs/*.md: the project's other pages, whose fenced blocks show commands too. */
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

describe('The commands the docs show fetch nothing from the registry either (issue 22)', () => {
  it('should find the pages and their bash commands', () => {
    expect(DOCS).toEqual(
      expect.arrayContaining(['docs/developer-portal.md', 'docs/operations.md']),
    );
    expect(DOCS.flatMap((file) => readmeCommands(path.join(ROOT, file))).length).toBeGreaterThan(
      10,
    );
  });

  it.each([['README.md'], ['packages/client/README.md'], ...DOCS.map((file) => [file])])(
    '%s: no line of a fenced block, of any language and comments included, should launch with npx (or npm exec, dlx, bunx) a name npm ci does not link',
    (file) => {
      const linked = binsLinkedByNpmCi();
      const launched = fencedBlocks(path.join(ROOT, file)).flatMap(({ lines }) =>
        lines.flatMap((line) => fetchablePackages(line)),
      );
      expect(launched.filter((name) => !linked.has(name))).toEqual([]);
    },
  );

  it('should name with npm run, in the bash blocks of docs/*.md, only scripts package.json has', () => {
    const named = DOCS.flatMap((file) =>
      readmeCommands(path.join(ROOT, file)).flatMap(({ text }) => npmScripts(text)),
    );
    expect(named).toEqual(expect.arrayContaining(['openapi:hey-api', 'backoffice']));
    expect(named.filter((script) => !SCRIPTS.includes(script))).toEqual([]);
  });
});

describe("README.md's demo commands, run against the demo as npm start serves it (issue 22)", () => {
  const demo = useDemoAsNpmStart();
  const scratch = mkdtempSync(path.join(tmpdir(), 'pos-api-readme-cwd-'));
  const runHere = readmeCommands().filter((command) => !runElsewhere(command));
  let results: Array<{ command: ReadmeCommand; code: number; stdout: string; stderr: string }>;

  beforeAll(async () => {
    const service = demo();
    const address = new URL(service.baseUrl).host;
    // One shell, in order (a block's variables reach the next), each command's output kept
    // apart; run from a scratch directory so what they write lands there, with npm pointed at
    // the clone (npm run from a subdirectory of the clone does the same).
    const script = [
      'npm() { command npm --prefix "$README_SPEC_ROOT" "$@"; }',
      ...runHere.map(
        ({ text }, i) =>
          `{ ${text.replaceAll('localhost:3000', address)}\n} >${i}.out 2>${i}.err; echo $? >${i}.rc`,
      ),
    ].join('\n');
    writeFileSync(path.join(scratch, 'readme.sh'), script);
    execFileSync('bash', ['readme.sh'], {
      cwd: scratch,
      env: { ...process.env, README_SPEC_ROOT: ROOT, POS_READ_BASE_URL: service.baseUrl },
      stdio: 'ignore',
    });
    results = runHere.map((command, i) => ({
      command,
      code: Number(readFileSync(path.join(scratch, `${i}.rc`), 'utf8')),
      stdout: readFileSync(path.join(scratch, `${i}.out`), 'utf8'),
      stderr: readFileSync(path.join(scratch, `${i}.err`), 'utf8'),
    }));
  }, 170_000);
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
  });

  const resultOf = (pattern: RegExp) => {
    const found = results.find(({ command }) => pattern.test(command.text));
    if (!found) throw new Error(`no README command matches ${pattern}`);
    return found;
  };
  /** The records of a JSON answer: its first array. */
  const recordsOf = (body: string): unknown[] => {
    const json = JSON.parse(body) as Record<string, unknown>;
    const list = Object.values(json).find((value) => Array.isArray(value));
    if (!list) throw new Error(`no records in ${body.slice(0, 300)}`);
    return list as unknown[];
  };

  it('should run the curl lines and the pos-read export here, and say where every other command runs', () => {
    expect(runHere.map(({ text }) => text)).toEqual([
      expect.stringMatching(/^TOKEN=\$\(curl /),
      expect.stringMatching(/^curl -s localhost:3000\/api\/v1.0\/shops /),
      expect.stringMatching(/^curl -s "localhost:3000\/api\/v1.0\/sales\?/),
      expect.stringMatching(/^curl -s "localhost:3000\/api\/v1.0\/sales\/feed\?/),
      expect.stringMatching(/^curl -s "localhost:3000\/api\/v1.0\/cash-drawer-sessions\?/),
      expect.stringMatching(/^curl -s "localhost:3000\/api\/v1.0\/business-days\?/),
      expect.stringMatching(/ npm run pos-read -- export sales /),
    ]);
  });

  it('should exit 0 from every command it runs', () => {
    expect(results.filter((r) => r.code !== 0)).toEqual([]);
  });

  it("should list the demo user's shops and show sales of the first one, from its period list and its feed", () => {
    expect(recordsOf(resultOf(/\/shops /).stdout).length).toBeGreaterThan(0);
    expect(recordsOf(resultOf(/\/sales\?/).stdout).length).toBeGreaterThan(0);
    expect(recordsOf(resultOf(/\/sales\/feed\?/).stdout).length).toBeGreaterThan(0);
  });

  it("should show the bar's drawer sessions of the spring-forward weekend, the night's counted after midnight", () => {
    const sessions = recordsOf(resultOf(/\/cash-drawer-sessions\?/).stdout) as Array<{
      businessDate: string;
      closedAt: string;
      status: string;
    }>;
    expect(sessions.length).toBeGreaterThan(2);
    const night = sessions.filter((s) => s.businessDate === '2026-03-28');
    expect(night.length).toBeGreaterThan(0);
    for (const s of night)
      expect([s.status, s.closedAt.slice(0, 10)]).toEqual(['CLOSED', '2026-03-29']);
  });

  it("should close the bar's weekend by business date, the night after midnight on its evening", () => {
    const days = recordsOf(resultOf(/\/business-days\?/).stdout) as Array<{
      businessDate: string;
      sales: { completed: number };
      cash: { sessions: number };
      digests: { sales: { count: number } };
    }>;
    expect(days.map((d) => d.businessDate)).toEqual(['2026-03-27', '2026-03-28', '2026-03-29']);
    for (const day of days) {
      expect(day.sales.completed).toBeGreaterThan(0);
      expect(day.cash.sessions).toBeGreaterThan(0);
      expect(day.digests.sales.count).toBeGreaterThanOrEqual(day.sales.completed);
    }
  });

  it("should write the CLI's CSV export, with records, where it was run", () => {
    const { stderr } = resultOf(/pos-read -- export /);
    expect(stderr).toMatch(/\b[1-9]\d* records, \d+ pages? written to sales\.csv/);
    const csv = path.join(scratch, 'sales.csv');
    expect(existsSync(csv)).toBe(true);
    expect(readFileSync(csv, 'utf8').trim().split('\n').length).toBeGreaterThan(1);
  });
});
