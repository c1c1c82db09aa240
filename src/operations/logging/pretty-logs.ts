import type { DestinationStream } from 'pino';
import type { MessageFormatFunc, PrettyOptions } from 'pino-pretty';
import type { AppConfig } from '../../config/app-config';

/**
 * Readable logs for a developer's terminal: LOG_FORMAT=pretty, or LOG_FORMAT=auto with
 * APP_ENV=development and standard output a terminal. LOG_FILE is always JSON lines, and so are
 * production (unless forced), pipes and the tests.
 */
export function usesPrettyLogs(config: AppConfig, stdoutIsTty = process.stdout.isTTY): boolean {
  if (config.LOG_FILE || config.LOG_FORMAT === 'json') return false;
  if (config.LOG_FORMAT === 'pretty') return true;
  return config.APP_ENV === 'development' && stdoutIsTty === true;
}

interface EventFields {
  msg?: unknown;
  context?: unknown;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  durationMs?: unknown;
}

/** One short line: `[Context] message`, or `GET /api/v1.0/sales 200 12 ms` for a request. */
export const prettyMessage: MessageFormatFunc = (log) => {
  const { msg, context, req, res, durationMs } = log as EventFields;
  if (req && res) {
    return `${req.method} ${req.url} ${res.statusCode} ${String(durationMs)} ms`;
  }
  return typeof context === 'string' && context ? `[${context}] ${String(msg)}` : String(msg);
};

const PRETTY_OPTIONS: PrettyOptions = {
  singleLine: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,service,context,req,res,requestId,durationMs',
  messageFormat: prettyMessage,
  // Synchronous, so the banner written after the last log line really comes last.
  sync: true,
};

/**
 * The pretty-printing stream, or undefined (JSON lines) when pretty logs are not wanted or
 * pino-pretty is not installed (it is a dev dependency: the production image has no use for it).
 * Lines reach it already redacted and scrubbed: it formats what the JSON logger would have written.
 */
export async function prettyDestination(config: AppConfig): Promise<DestinationStream | undefined> {
  if (!usesPrettyLogs(config)) return undefined;
  try {
    const { default: pretty } = await import('pino-pretty');
    return pretty(PRETTY_OPTIONS);
  } catch {
    process.stderr.write('LOG_FORMAT: pino-pretty is not installed; logging JSON lines\n');
    return undefined;
  }
}
