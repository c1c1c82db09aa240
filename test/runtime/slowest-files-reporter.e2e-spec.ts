// eslint-disable-next-line @typescript-eslint/no-require-imports
const SlowestFilesReporter = require('../support/slowest-files.reporter.js') as new (
  globalConfig: unknown,
  options?: { count?: number },
) => { onRunComplete(contexts: unknown, results: unknown): void };

/** A jest file result as the reporter reads it. */
const file = (name: string, seconds: number, tests: number) => ({
  testFilePath: `${process.cwd()}/test/${name}`,
  perfStats: { start: 1_000, end: 1_000 + seconds * 1000 },
  numPassingTests: tests,
  numFailingTests: 0,
  numPendingTests: 0,
});

/** Issue 56: the end of a run names the slowest spec files, so CI's output shows where time goes. */
describe('The slowest spec files, printed after a run', () => {
  it('should list the slowest files first, with their seconds and test counts, at most `count`', () => {
    const printed: string[] = [];
    const write = jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => printed.push(String(chunk)) > 0);
    const given = process.env.SLOWEST_FILES;
    // The run's own SLOWEST_FILES would override the count under test.
    delete process.env.SLOWEST_FILES;
    try {
      new SlowestFilesReporter({}, { count: 2 }).onRunComplete(undefined, {
        testResults: [
          file('a.e2e-spec.ts', 3, 4),
          file('b.e2e-spec.ts', 41.25, 12),
          file('c.e2e-spec.ts', 7, 1),
        ],
      });
    } finally {
      write.mockRestore();
      if (given !== undefined) process.env.SLOWEST_FILES = given;
    }
    expect(printed.join('')).toBe(
      '\nThe 2 slowest of 3 spec files (51 s in all, added up over the workers):\n' +
        '    41.3 s    12 tests  test/b.e2e-spec.ts\n' +
        '     7.0 s     1 tests  test/c.e2e-spec.ts\n',
    );
  });
});
