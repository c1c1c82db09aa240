import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppConfig } from './app-config';
import { MAX_FEED_WAIT_SECONDS } from './limits';
import { readReplicaProblems } from './read-replicas';

export class ConfigError extends Error {}

/** A waiting feed request is silent on its socket up to its Wait, then answers: room to spare. */
const WAIT_MARGIN_MS = 10_000;
const MIN_IDLE_TIMEOUT_MS = MAX_FEED_WAIT_SECONDS * 1000 + WAIT_MARGIN_MS;

export interface LoadConfigOptions {
  /**
   * False for the commands that sign no token (migrations, the back-office admin command): they
   * need only the database settings, so production does not require a signing key for them.
   */
  signsTokens?: boolean;
}

/** Reads and validates the environment; throws ConfigError with every problem listed. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { signsTokens = true }: LoadConfigOptions = {},
): AppConfig {
  const known = Object.keys(new AppConfig());
  const picked: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined) picked[key] = value;
  }
  const config = plainToInstance(AppConfig, picked);
  const problems = validateSync(config, { forbidUnknownValues: true }).flatMap((e) =>
    Object.values(e.constraints ?? {}).map((msg) => `${e.property}: ${msg}`),
  );
  if (config.isProduction) {
    // An unset APP_ENV is production: say so, or the message would name a value nobody wrote.
    const when = `when APP_ENV=production${env.APP_ENV === undefined ? ' (APP_ENV is unset)' : ''}`;
    if (!config.DATABASE_URL) problems.push(`DATABASE_URL: required ${when}`);
    if (signsTokens && !config.JWT_PRIVATE_KEY && !config.JWT_PRIVATE_KEY_FILE) {
      problems.push(`JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE: required ${when}`);
    }
    if (config.TRUST_PROXY === true) {
      problems.push(
        `TRUST_PROXY: true (the client-written X-Forwarded-For) is refused ${when}; ` +
          "set the number of proxy hops or the proxies' addresses",
      );
    }
  }
  if (config.IDLE_TIMEOUT_MS < MIN_IDLE_TIMEOUT_MS) {
    problems.push(
      `IDLE_TIMEOUT_MS: must be at least ${MIN_IDLE_TIMEOUT_MS} (the longest feed Wait, ` +
        `${MAX_FEED_WAIT_SECONDS} s, plus ${WAIT_MARGIN_MS / 1000} s): a held request sends nothing`,
    );
  }
  if (config.HEADERS_TIMEOUT_MS > config.REQUEST_TIMEOUT_MS) {
    problems.push('HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS');
  }
  if (config.JWT_PRIVATE_KEY && config.JWT_PRIVATE_KEY_FILE) {
    problems.push('JWT_PRIVATE_KEY and JWT_PRIVATE_KEY_FILE: set one, not both');
  }
  if (config.JWT_PREVIOUS_PUBLIC_KEYS) {
    try {
      const parsed: unknown = JSON.parse(config.JWT_PREVIOUS_PUBLIC_KEYS);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    } catch {
      problems.push('JWT_PREVIOUS_PUBLIC_KEYS: must be a JSON object {"kid": "PEM", ...}');
    }
  }
  problems.push(...readReplicaProblems(config.DATABASE_URL, config.DATABASE_READ_URLS));
  problems.push(...binlogProblems(config.DATABASE_URL, config.BINLOG_DATABASE_URL));
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return config;
}

/**
 * What is wrong with BINLOG_DATABASE_URL: its log must be the one of the database the digests
 * read, so DATABASE_URL is needed (the embedded SQLite has no binary log) and both must name the
 * same database. The URLs are never echoed: they hold passwords.
 */
function binlogProblems(databaseUrl: string | undefined, binlogUrl: string | undefined): string[] {
  if (!binlogUrl) return [];
  if (!databaseUrl) {
    return ['BINLOG_DATABASE_URL: needs DATABASE_URL (the embedded SQLite has no binary log)'];
  }
  const database = (url: string) => {
    try {
      return decodeURIComponent(new URL(url).pathname.slice(1));
    } catch {
      return null;
    }
  };
  return database(binlogUrl) === database(databaseUrl)
    ? []
    : [
        'BINLOG_DATABASE_URL: must name the database of DATABASE_URL (the log of what the digests read)',
      ];
}
