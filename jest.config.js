/** Unit specs live next to the code (src and tools, *.spec.ts); end-to-end specs in test/ (*.e2e-spec.ts). */
const transform = {
  '^.+\\.ts$': ['@swc/jest'],
  // hyparquet-writer (the client's Parquet export) and @vlasky/zongji (the binary log's reader)
  // are published as ES modules only.
  '/node_modules/(hyparquet(-writer)?|@vlasky/zongji)/.+\\.js$': ['@swc/jest'],
};
const transformIgnorePatterns = ['/node_modules/(?!hyparquet(-writer)?/|@vlasky/zongji/)'];
// Jest's default is one worker per core but one; on a 2-core machine that is one, in band, with a
// core mostly idle while a spec waits on its database. Two halve the suite there (docs/testing.md).
const { availableParallelism } = require('node:os');

module.exports = {
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A bound separates done from never, ten times the normal (docs/testing.md): jest's 5 s is
  // not that for a spec starting an app or a property run against MariaDB on a loaded machine.
  testTimeout: 60_000,
  // The default output, then why tests were skipped (test/support/requirements.ts), then the
  // slowest spec files.
  reporters: [
    'default',
    '<rootDir>/test/support/skip-reasons.reporter.js',
    // Where the minutes go: the slowest spec files, printed at the end (CI's output too).
    '<rootDir>/test/support/slowest-files.reporter.js',
  ],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/tools/**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // packages/client is ES-module source: its relative imports end in .js.
      moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
      // After each spec file: no secret in the log of the apps it started.
      setupFilesAfterEnv: ['<rootDir>/test/support/no-secrets-in-logs.ts'],
      transform,
      transformIgnorePatterns,
    },
  ],
};
