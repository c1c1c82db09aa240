/**
 * Mutation testing of the security code (issue 30; docs/testing.md, "Mutation testing"):
 * `npm run test:mutation`. Every file that guards the passwords, the tokens or the shop scope is
 * listed in `mutate`; a new security-relevant file joins the list in the commit that adds it.
 */
// The committed results are measured with the MariaDB variants of the SQL specs, as CI runs them
// (docs/decisions.md, 30.2): a run without them writes other results into the committed file.
// Only when Stryker reads it: knip loads this file too.
if (!process.env.TEST_DATABASE_URL && process.argv.some((arg) => /stryker/.test(arg))) {
  console.warn(
    'stryker.config.mjs: TEST_DATABASE_URL is not set, so the MariaDB variants are skipped; ' +
      'set it (mysql://root@127.0.0.1:3306/) before committing test/mutation/stryker-incremental.json',
  );
}

const config = {
  mutate: [
    // Sign-in, tokens, guards, password verification: all of src/auth.
    'src/auth/**/*.ts',
    '!src/auth/**/*.spec.ts',
    '!src/auth/**/testing/**',
    // OpenAPI documentation only (decorators with the operation's summary, description and
    // examples), no security logic: its mutants are description text. The text is checked
    // against docs/openapi.json by `npm run openapi:check`, not by unit specs (docs/testing.md).
    '!src/auth/**/*.operation.ts',
    // The wall: every business read is scoped to the caller's shops.
    'src/wall/shop-scope.ts',
    'src/wall/wall.ts',
    // Signed cursors, CSV formula injection, the rate limits' window, the proxy trust parser.
    'src/sync/paging/cursor-codec.ts',
    'src/reports/csv-formula.ts',
    'src/common/throttling/sliding-window.ts',
    'src/config/trust-proxy.ts',
    // The digests' checksum, and the waiting feeds' wake-up (who is woken for which rows).
    'src/sync/digest/day-checksums.ts',
    'src/sync/changes/arrival-watcher.ts',
    'src/sync/feed/waiter.ts',
  ],
  testRunner: 'jest',
  jest: { configFile: 'jest.mutation.config.js' },
  // Each mutant runs only the unit tests that reached its line in the first run.
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // CI fails below 85 % (.ci/run); under 90 % the report shows the score as a warning.
  thresholds: { high: 90, low: 85, break: 85 },
  // Incremental mode (docs/testing.md, "Incremental and full runs"): the last full results are
  // committed, and a run reuses every mutant whose code and covering specs did not change since.
  // `npm run test:mutation -- --force` reruns them all and rewrites the file.
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  // Build output and local data stay out of the sandbox (patterns are .gitignore's: / anchors).
  ignorePatterns: ['/dist', '/dist-bench', '/data', '/coverage', '/reports', '/test-artifacts'],
  // Mutants of module-level constants would rerun every unit spec each: ignored (docs/testing.md).
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 10_000,
  cleanTempDir: 'always',
};

export default config;
