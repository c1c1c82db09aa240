/**
 * After a run, the spec files that took longest, slowest first, with their time and test count:
 * where the suite's minutes go, visible in CI's output (issue 56). SLOWEST_FILES=N changes how
 * many (default 15; 0 prints none).
 */
class SlowestFilesReporter {
  constructor(_globalConfig, options = {}) {
    const fromEnv = process.env.SLOWEST_FILES ? Number(process.env.SLOWEST_FILES) : NaN;
    this.count = Number.isInteger(fromEnv) && fromEnv >= 0 ? fromEnv : (options.count ?? 15);
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .filter((file) => file.perfStats && file.perfStats.end > file.perfStats.start)
      .map((file) => ({
        path: file.testFilePath.slice(process.cwd().length + 1),
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
        tests: file.numPassingTests + file.numFailingTests + file.numPendingTests,
      }))
      .sort((a, b) => b.seconds - a.seconds);
    if (this.count === 0 || files.length < 2) return;
    const total = files.reduce((sum, file) => sum + file.seconds, 0);
    const lines = files
      .slice(0, this.count)
      .map(
        (file) =>
          `${file.seconds.toFixed(1).padStart(8)} s  ${String(file.tests).padStart(4)} tests  ${file.path}`,
      );
    process.stderr.write(
      `\nThe ${lines.length} slowest of ${files.length} spec files ` +
        `(${total.toFixed(0)} s in all, added up over the workers):\n${lines.join('\n')}\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
