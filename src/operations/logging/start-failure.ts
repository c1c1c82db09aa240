/**
 * The line that says the service could not start. JSON (one line, `level` fatal, on standard
 * output with the other log lines) wherever the logs are JSON, which it decides from the
 * environment as usesPrettyLogs does from the configuration: the configuration may be what failed.
 * Text on standard error in a developer's terminal (or with LOG_FORMAT=pretty).
 */
export function startFailureLine(
  message: string,
  env: NodeJS.ProcessEnv = process.env,
  stdoutIsTty = process.stdout.isTTY,
  now = new Date(),
): { stream: 'stdout' | 'stderr'; text: string } {
  const text = `The service could not start: ${message}`;
  const format = env.LOG_FORMAT?.trim().toLowerCase();
  const pretty =
    !env.LOG_FILE?.trim() &&
    format !== 'json' &&
    (format === 'pretty' || (env.APP_ENV?.trim() === 'development' && stdoutIsTty === true));
  if (pretty) return { stream: 'stderr', text: `${text}\n` };
  const line = {
    level: 'fatal',
    time: now.toISOString(),
    service: 'pos-read-api',
    context: 'Bootstrap',
    msg: text,
  };
  return { stream: 'stdout', text: `${JSON.stringify(line)}\n` };
}
