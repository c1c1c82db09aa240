import {
  chmodSync,
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { MirrorEvent, PosReadClient } from '../../packages/client/src/index';
import { run } from '../../packages/client/src/cli/run';
import { MirrorDatabase } from '../../packages/client/src/mirror/mirror-database';
import { FakeMirrorApi } from './support/fake-mirror-api';

const BASE_URL = 'https://fake';
const modeOf = (file: string): number => statSync(file).mode & 0o777;

/**
 * The mirror's SQLite file holds the shops' business data: created 0600 whatever the umask, its
 * WAL files too; an existing mirror open to others is said (a warning) and left as it is
 * (docs/decisions.md 25.3); an empty file it did not create is refused unless its user's and
 * private (issue 44).
 */
describe("Client: the mirror file is its owner's only (issue 25)", () => {
  let dir: string;
  let into: string;
  let api: FakeMirrorApi;
  let client: PosReadClient;
  let umask: number;

  beforeAll(() => {
    umask = process.umask(0o022); // the usual umask: SQLite alone would create 0644
  });
  afterAll(() => process.umask(umask));
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mirror-mode-'));
    into = path.join(dir, 'copy.sqlite');
    api = new FakeMirrorApi();
    client = new PosReadClient({
      baseUrl: BASE_URL,
      username: 'u',
      password: 'p',
      fetch: api.fetch,
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pass = (extra: { verifyOnly?: boolean } = {}) => {
    const events: MirrorEvent[] = [];
    const done = client.mirror({ into, onEvent: (e) => events.push(e), ...extra });
    return done.then((summary) => ({
      summary,
      warnings: events.filter((e) => e.type === 'warning'),
    }));
  };

  /** `pos-read mirror --into FILE`: its exit code and standard error. */
  const posReadMirror = async () => {
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const code = await run(['--base-url', BASE_URL, 'mirror', '--into', into], {
      env: { POS_READ_USERNAME: 'u', POS_READ_PASSWORD: 'p' },
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr,
      client: { fetch: api.fetch },
    });
    return { code, err };
  };

  it('should create a new mirror file 0600, and SQLite its -wal and -shm files 0600 too, without a warning', async () => {
    const { warnings } = await pass();
    expect(modeOf(into)).toBe(0o600);
    expect(warnings).toEqual([]);
    // While a mirror has the file open, its WAL files exist: the mode SQLite gave them.
    const second = path.join(dir, 'open.sqlite');
    const file = await MirrorDatabase.open(second, { readOnly: false, warn: () => undefined });
    try {
      await file.prepare({ baseUrl: BASE_URL, shops: '*' });
      for (const suffix of ['', '-wal', '-shm']) {
        expect([suffix, existsSync(`${second}${suffix}`)]).toEqual([suffix, true]);
        expect([suffix, modeOf(`${second}${suffix}`)]).toEqual([suffix, 0o600]);
      }
    } finally {
      await file.close();
    }
  });

  it('should warn, and leave the mode, when an existing mirror is open to other users; mirror and verify', async () => {
    await pass();
    chmodSync(into, 0o644);
    for (const verifyOnly of [false, true]) {
      const { warnings } = await pass({ verifyOnly });
      expect(warnings).toEqual([
        {
          type: 'warning',
          message: `${into} is open to other users of this machine (mode 0644), and holds your shops' sales: run \`chmod 600 ${into}\` unless you shared it on purpose. pos-read leaves its mode as it is.`,
        },
      ]);
      expect(modeOf(into)).toBe(0o644);
    }
    chmodSync(into, 0o640);
    expect((await pass()).warnings).toHaveLength(1);
    chmodSync(into, 0o600);
    expect((await pass()).warnings).toEqual([]);
  });

  it('should refuse an empty file open to others that it did not create, say why, and write nothing to it', async () => {
    writeFileSync(into, '', { mode: 0o666 });
    chmodSync(into, 0o666);
    await expect(pass()).rejects.toThrow(
      `${into} is an empty file pos-read did not create, and others may read or write it (mode 0666); it would hold your shops' sales, so nothing was written to it.`,
    );
    expect([statSync(into).size, modeOf(into)]).toEqual([0, 0o666]);
    expect(existsSync(`${into}-wal`)).toBe(false);
  });

  it('should refuse an empty file reached through a symbolic link, and fill an empty file of its user made 0600', async () => {
    const target = path.join(dir, 'target.sqlite');
    writeFileSync(target, '', { mode: 0o600 });
    symlinkSync(target, into);
    await expect(pass()).rejects.toThrow(/it is not a regular file/);
    expect(statSync(target).size).toBe(0);
    rmSync(into);
    writeFileSync(into, '', { mode: 0o600 });
    chmodSync(into, 0o600);
    const { warnings, summary } = await pass();
    expect(warnings).toEqual([]);
    expect(summary.rows).toEqual({
      sales: 0,
      sale_lines: 0,
      payments: 0,
      cash_movements: 0,
      cash_drawer_sessions: 0,
    });
  });

  it("should refuse an empty private file of another user (as if another user's process ran it)", async () => {
    writeFileSync(into, '', { mode: 0o600 });
    const owner = statSync(into).uid;
    const uid = jest.spyOn(process, 'getuid').mockReturnValue(owner + 1);
    try {
      await expect(pass()).rejects.toThrow(
        `${into} is an empty file pos-read did not create, and it belongs to another user (uid ${owner});`,
      );
    } finally {
      uid.mockRestore();
    }
    expect(statSync(into).size).toBe(0);
  });

  it('should exit 9 from pos-read mirror on such a file, with the reason on standard error', async () => {
    writeFileSync(into, '', { mode: 0o644 });
    chmodSync(into, 0o644);
    const { code, err } = await posReadMirror();
    expect(code).toBe(9);
    expect(err).toMatch(/did not create, and others may read or write it \(mode 0644\)/);
  });

  it('should hand the warning to process.emitWarning when the caller listens to no events', async () => {
    await pass();
    chmodSync(into, 0o604);
    const emitted = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await client.mirror({ into });
      expect(emitted).toHaveBeenCalledWith(
        expect.stringMatching(/\(mode 0604\)/),
        'PosReadMirrorWarning',
      );
    } finally {
      emitted.mockRestore();
    }
  });

  it('should print the warning on standard error from pos-read mirror, which still exits 0', async () => {
    await pass();
    chmodSync(into, 0o644);
    const { code, err } = await posReadMirror();
    expect(code).toBe(0);
    expect(err).toMatch(
      /^pos-read: warning: \S+ is open to other users of this machine \(mode 0644\)/m,
    );
  });
});
