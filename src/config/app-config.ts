import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { availableParallelism } from 'node:os';
import { readReplicaProblems, splitReadUrls } from './read-replicas';
import { IsTrustProxy, toTrustProxy, TrustProxy } from './trust-proxy';

const APP_ENVS = ['development', 'preproduction', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];
const JWT_ALGORITHMS = ['ES256', 'HS256'] as const;
const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  return value;
};
/** One core stays free for the event loop (reads, the queue itself). */
const defaultHashConcurrency = (): number => Math.max(1, availableParallelism() - 1);

const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * Every environment variable the service reads, validated once at start-up.
 * Documented one by one in .env.example and docs/operations.md.
 */
export class AppConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString() HOST = '0.0.0.0';

  /**
   * Absent means production: a deployment that forgets it refuses to start without a key and a
   * database instead of running with a self-made key and the demo database. `npm start` sets
   * development itself (src/start-development.ts).
   */
  @IsIn(APP_ENVS)
  APP_ENV: AppEnv = 'production';

  /** mysql://user:pass@host:3306/db. Absent: the embedded SQLite database in DATA_DIR. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(mysql|mariadb):\/\/[^\s]+$/, {
    message: 'DATABASE_URL must look like mysql://user:pass@host:3306/database',
  })
  DATABASE_URL?: string;

  /** Folder of the embedded database and of the generated development signing key. */
  @IsString()
  @MinLength(1)
  DATA_DIR = './data';

  /** Fill the embedded database with demo data on first start. */
  @Transform(toBoolean)
  @IsBoolean()
  DEMO_SEED = true;

  @IsIn(JWT_ALGORITHMS)
  JWT_ALGORITHM: JwtAlgorithm = 'ES256';

  /** PEM private key (ES256) or shared secret (HS256, at least 32 characters). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  JWT_PRIVATE_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  JWT_PRIVATE_KEY_FILE?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(128)
  JWT_KEY_ID?: string;

  /**
   * Retired verification keys still accepted until their last token expires: a JSON object
   * {"kid": "PEM or secret", ...}.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  JWT_PREVIOUS_PUBLIC_KEYS?: string;

  @IsString()
  @MinLength(1)
  JWT_ISSUER = 'pos-read-api';

  @IsString()
  @MinLength(1)
  JWT_AUDIENCE = 'pos-read-api/v1.0';

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  LOGIN_MAX_FAILURES = 5;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 60)
  LOGIN_LOCKOUT_MINUTES = 15;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 60)
  LOGIN_FAILURE_WINDOW_MINUTES = 15;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  TOKEN_RATE_LIMIT_PER_MINUTE = 30;

  /**
   * Which X-Forwarded-For entries to believe for the client address: false (none), a number of
   * proxy hops, the proxies' addresses/CIDRs, or true (the leftmost, client-written entry).
   */
  @Transform(toTrustProxy)
  @IsTrustProxy()
  TRUST_PROXY: TrustProxy = false;

  /** Secret that signs pagination cursors; derived from the signing key when absent. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32)
  CURSOR_SECRET?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * Redis holding the counters of the report's rate limit, shared by every instance:
   * redis://[user:pass@]host:6379[/db] or rediss://. Absent: counters in memory (one instance).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/[^\s]+$/, { message: 'REDIS_URL must look like redis://host:6379' })
  REDIS_URL?: string;

  /** Prefix of the service's keys in Redis; instances of one deployment must share it. */
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  REDIS_KEY_PREFIX = 'pos-read-api:';

  /** Port of the management server (health, readiness, metrics); never exposed publicly. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  MANAGEMENT_PORT = 9464;

  @IsString() MANAGEMENT_HOST = '0.0.0.0';

  /** Write the JSON log lines to this file instead of standard output. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  LOG_FILE?: string;

  /** How long a SIGTERM waits for requests in flight before cutting them. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /** MySQL: how long opening a connection may take before the request fails with 503. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120_000)
  DATABASE_CONNECT_TIMEOUT_MS = 5_000;

  /** MySQL: how long one query may take before the request fails with 503 (0: no limit). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  DATABASE_QUERY_TIMEOUT_MS = 10_000;

  /** MySQL: connections in the pool of each instance. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_SIZE = 10;

  // --- Read replicas (docs/operations.md, "Read replicas") ---

  /**
   * MySQL/MariaDB replicas of DATABASE_URL for the data routes' reads, comma-separated
   * mysql:// URLs. Absent: every read goes to the primary. Sign-in and api_ tables never use them.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  DATABASE_READ_URLS?: string;

  /** A replica further behind than this stops taking reads until it catches up. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86_400)
  MAX_REPLICA_LAG_SECONDS = 30;

  /** How often each replica's lag (SHOW REPLICA STATUS) and reachability are checked. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  REPLICA_CHECK_INTERVAL_MS = 5_000;

  // --- HTTP server timeouts (issue 12): slow clients cannot hold connections. ---------------

  /** Receiving a whole request (headers and body) may take this long; then 408 and closed. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  REQUEST_TIMEOUT_MS = 30_000;

  /** Receiving the request line and headers may take this long (at most REQUEST_TIMEOUT_MS). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HEADERS_TIMEOUT_MS = 10_000;

  /** A kept-alive connection with no request, or a socket with no traffic, is closed after this. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  IDLE_TIMEOUT_MS = 60_000;

  // --- Sign-in under attack (docs/auth.md "Under attack") ---------------------------------

  /**
   * Failures of one name from all client addresses together that lock the name for every
   * address (LOGIN_MAX_FAILURES counts those of one address). Bounds a many-address attacker.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  LOGIN_MAX_FAILURES_PER_NAME = 20;

  /** Every 401 of the token route leaves no sooner than this after the request (refusal floor). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000)
  LOGIN_MIN_RESPONSE_MS = 200;

  /** Password verifications running at once (default: cores - 1, at least 1). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(256)
  PASSWORD_HASH_CONCURRENCY = defaultHashConcurrency();

  /** Sign-ins waiting for a verification slot; past it the token route answers 503 at once. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000)
  PASSWORD_HASH_QUEUE_SIZE = 32;

  // --- Responses and logs (issue 17) -------------------------------------------------------

  /**
   * Compress JSON and CSV responses (zstd, br, gzip, negotiated by Accept-Encoding): on|off.
   * Off for deployments where a proxy in front compresses.
   */
  @Transform(toBoolean)
  @IsBoolean()
  COMPRESSION = true;

  /**
   * json: one JSON object per line. pretty: one short readable line per event and a start-up
   * banner (needs the pino-pretty dev dependency). auto: pretty with APP_ENV=development on a
   * terminal without LOG_FILE, else json.
   */
  @IsIn(LOG_FORMATS)
  LOG_FORMAT: LogFormat = 'auto';

  get isProduction(): boolean {
    return this.APP_ENV === 'production';
  }

  get usesEmbeddedDatabase(): boolean {
    return !this.DATABASE_URL;
  }

  /** DATABASE_READ_URLS as a list (empty: no replicas). */
  get readReplicaUrls(): string[] {
    return splitReadUrls(this.DATABASE_READ_URLS);
  }
}

export class ConfigError extends Error {}

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
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return config;
}
