import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { http } from '../support/http';
import {
  ServiceEnv,
  spawnService,
  startServiceProcess,
  stopService,
} from '../support/service-process';

jest.setTimeout(120_000);

/** A file as `docker run --env-file` reads it: KEY=VALUE lines, # comments, no quoting. */
function envFile(name: string): Record<string, string> {
  const text = readFileSync(path.join(__dirname, '../..', name), 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** The file's variables alone (none of the specs' defaults), but the spec's free ports and DATA_DIR. */
function onlyThe(file: Record<string, string>, dataDir: string): ServiceEnv {
  const { PORT, HOST, MANAGEMENT_PORT, MANAGEMENT_HOST, ...rest } = file;
  void [PORT, HOST, MANAGEMENT_PORT, MANAGEMENT_HOST];
  return {
    APP_ENV: undefined,
    DEMO_SEED: undefined,
    JWT_PRIVATE_KEY: undefined,
    JWT_KEY_ID: undefined,
    ...rest,
    DATA_DIR: dataDir,
  };
}

describe('The example environment files tell one story: production fails closed, development runs the demo (issue 22)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-env-examples-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('should refuse to start with .env.example as it is (production), naming DATABASE_URL', async () => {
    const file = envFile('.env.example');
    expect(file.APP_ENV).toBe('production');
    const service = startServiceProcess(onlyThe(file, dataDir), { built: true });
    expect(await service.exited).toEqual({ code: 1, signal: null });
    expect(service.output()).toMatch(/DATABASE_URL/);
  });

  it('should serve the demo in development with .env.development.example', async () => {
    const file = envFile('.env.development.example');
    expect(file.APP_ENV).toBe('development');
    const service = await spawnService(onlyThe(file, dataDir), {
      built: true,
      entry: 'tools/seed/start-development.js',
      startTimeoutMs: 100_000,
    });
    try {
      expect(service.output()).toMatch(/APP_ENV=development/);
      const res = await http(service.baseUrl, '/api/v1.0/Token', {
        method: 'POST',
        json: { username: 'demo', password: 'demo-password' },
      });
      expect(res.status).toBe(200);
    } finally {
      await stopService(service);
    }
  });
});
