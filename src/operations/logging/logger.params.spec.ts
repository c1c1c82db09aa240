import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../config/load-config';
import { logDestination, logSerializers, loggerOptions, loggerParams } from './logger.params';

describe('loggerOptions', () => {
  const config = loadConfig({ APP_ENV: 'development', LOG_LEVEL: 'debug' });

  it('should take the request id that Fastify gave the request', () => {
    const genReqId = loggerOptions(config).genReqId as (req: unknown, res: unknown) => unknown;
    expect(genReqId({ id: 'abc-123' }, {})).toBe('abc-123');
    expect(genReqId({}, {})).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should use the configured level and redact the Authorization header', () => {
    const options = loggerOptions(config);
    expect(options.level).toBe('debug');
    expect(options.redact).toMatchObject({
      paths: expect.arrayContaining(['req.headers.authorization']),
    });
  });

  it("should skip a request's line below 5xx when the level leaves info out, never an error's", () => {
    type LevelOf = (req: unknown, res: { statusCode: number }, err?: Error) => string;
    const levelAt = (level: string) =>
      loggerOptions(loadConfig({ APP_ENV: 'development', LOG_LEVEL: level }))
        .customLogLevel as LevelOf;
    for (const level of ['trace', 'debug', 'info']) {
      expect({ level, line: levelAt(level)({}, { statusCode: 404 }) }).toEqual({
        level,
        line: 'info',
      });
    }
    for (const level of ['warn', 'error', 'fatal', 'silent']) {
      expect({ level, line: levelAt(level)({}, { statusCode: 200 }) }).toEqual({
        level,
        line: 'silent',
      });
      expect(levelAt(level)({}, { statusCode: 503 })).toBe('error');
      expect(levelAt(level)({}, { statusCode: 200 }, new Error('x'))).toBe('error');
    }
  });

  it('should log a request without headers or body', () => {
    expect(logSerializers.req({ id: '1', method: 'GET', url: '/x', remoteAddress: '::1' })).toEqual(
      { id: '1', method: 'GET', url: '/x', remoteAddress: '::1' },
    );
  });

  it('should drop the SQL values a database error carries (parameters, sql), at any depth', () => {
    const err = {
      type: 'QueryFailedError',
      message: 'boom',
      query: 'SELECT ? AS x',
      parameters: ['alice'],
      driverError: { code: 'ER_X', sql: "SELECT 'alice' AS x" },
    };
    expect(logSerializers.err(err)).toEqual({
      type: 'QueryFailedError',
      message: 'boom',
      query: 'SELECT ? AS x',
      driverError: { code: 'ER_X' },
    });
  });

  it('should write to LOG_FILE when set, else standard output', () => {
    expect(Array.isArray(loggerParams(config).pinoHttp)).toBe(false);
  });

  it('should create LOG_FILE readable and writable by its owner alone (0600)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'log-file-'));
    const file = path.join(dir, 'logs', 'api.log');
    const previous = process.umask(0o022);
    try {
      const destination = logDestination(
        loadConfig({ APP_ENV: 'development', LOG_FILE: file }),
      ) as { write(line: string): void; end(): void };
      destination.write('{"msg":"x"}\n');
      destination.end();
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
