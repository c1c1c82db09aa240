import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { useDemoAsNpmStart } from '../support/demo-process';
import { builtClient } from './built-client';
import { fencedBlocks, ROOT } from './readme-commands';

jest.setTimeout(300_000);

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const KINDS = ['commonjs', 'module'] as const;

/** The TypeScript blocks of a README that are whole programs: those that start with an import. */
const programsOf = (file: string): string[] =>
  fencedBlocks(path.join(ROOT, file), 'ts')
    .map(({ lines }) => lines.join('\n').trim() + '\n')
    .filter((code) => code.startsWith('import '));

const README_PROGRAMS = programsOf('README.md');
const CLIENT_README_PROGRAMS = programsOf('packages/client/README.md');

/**
 * A new project of one module kind, as an integrator makes it: its package.json type,
 * `module: nodenext`, strict, @types/node, and @pos-read-api/client installed (linked to this
 * repository's built package).
 */
function newProject(kind: (typeof KINDS)[number], programs: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), `pos-read-example-${kind}-`));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, type: kind }));
  const compilerOptions = { module: 'nodenext', target: 'es2022', strict: true, outDir: 'out' };
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, types: ['node'] }, include: ['*.ts'] }),
  );
  mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules/@pos-read-api'));
  symlinkSync(
    path.join(ROOT, 'node_modules/@types/node'),
    path.join(dir, 'node_modules/@types/node'),
  );
  symlinkSync(builtClient(), path.join(dir, 'node_modules/@pos-read-api/client'));
  programs.forEach((code, i) => writeFileSync(path.join(dir, `example-${i}.ts`), code));
  return dir;
}

/** tsc's exit code and messages over a project. */
function typeCheck(dir: string): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
  return { code: result.status, output: result.stdout + result.stderr };
}

describe("The README's TypeScript example is a whole program, type-checked and run as CommonJS and as an ES module (issue 22)", () => {
  const demo = useDemoAsNpmStart();
  const projects: string[] = [];
  afterAll(() => {
    for (const dir of projects) rmSync(dir, { recursive: true, force: true });
  });

  it('should find one program in README.md and one in packages/client/README.md', () => {
    expect([README_PROGRAMS.length, CLIENT_README_PROGRAMS.length]).toEqual([1, 1]);
  });

  it.each(KINDS)('should type-check every program of both READMEs in a new %s project', (kind) => {
    const dir = newProject(kind, [...README_PROGRAMS, ...CLIENT_README_PROGRAMS]);
    projects.push(dir);
    expect(typeCheck(dir)).toEqual({ code: 0, output: '' });
  });

  it.each(KINDS)(
    "should print the demo's sales of the example's month when README.md's program runs as %s",
    (kind) => {
      const { baseUrl } = demo();
      const code = README_PROGRAMS[0].replaceAll('http://localhost:3000', baseUrl);
      const dir = newProject(kind, [code]);
      projects.push(dir);
      expect(typeCheck(dir).code).toBe(0);
      const printed = execFileSync(process.execPath, ['out/example-0.js'], {
        cwd: dir,
        encoding: 'utf8',
      });
      const lines = printed.trim().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(line).toMatch(/^\S+ -?\d+(\.\d+)?$/);
    },
  );

  it.each([
    ['README.md', README_PROGRAMS],
    ['packages/client/README.md', CLIENT_README_PROGRAMS],
  ])(
    'should run exactly the program of %s with the command its README names (issue 56)',
    (readme, programs) => {
      const command =
        readme === 'README.md' ? 'npm run client:example -- README.md' : 'npm run client:example';
      expect(readFileSync(path.join(ROOT, readme), 'utf8')).toContain(command);
      const printed = execFileSync(
        'npm',
        [
          'run',
          '--silent',
          'client:example',
          '--',
          ...(readme === 'README.md' ? [readme] : []),
          '--print',
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(printed).toBe(programs[0]);
    },
  );

  it("should run packages/client/README.md's program as written with npm run client:example, against the demo (issue 43)", () => {
    const printed = execFileSync('npm', ['run', '--silent', 'client:example'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        POS_READ_BASE_URL: demo().baseUrl,
        POS_READ_USERNAME: 'demo',
        POS_READ_PASSWORD: 'demo-password',
      },
    });
    const lines = printed.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^\S+ -?\d+(\.\d+)?$/);
  });
});
