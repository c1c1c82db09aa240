import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { availableParallelism } from 'node:os';
import { BooleanEnv, IntegerEnv, OptionalEnv, TextEnv } from './env-decorators';
import { DEFAULT_MANAGEMENT_PORT } from './limits';
import { splitReadUrls } from './read-replicas';
import { IsTrustProxy, toTrustProxy, TrustProxy } from './trust-proxy';

const APP_ENVS = ['development', 'preproduction', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];
const JWT_ALGORITHMS = ['ES256', 'HS256'] as const;
const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/** One core stays free for the event loop (reads, the queue itself). */
const defaultHashConcurrency = (): number => Math.max(1, availableParallelism() - 1);

/**
 * Every environment variable the service reads, validated once at start-up (loadConfig,
 * load-config.ts); how each kind is read: env-decorators.ts. Documented one by one in
 * .env.example and docs/operations.md.
 */
export class AppConfig {
  @IntegerEnv(0, 65535) PORT = 3000;

  @IsString() HOST = '0.0.0.0';

  /**
   * Absent means production: a deployment that forgets it refuses to start without a key and a
   * database instead of running with a self-made key and the demo database. `npm start` sets
   * development itself (tools/seed/start-development.ts).
   */
  @IsIn(APP_ENVS)
  APP_ENV: AppEnv = 'production';

  /** mysql://user:pass@host:3306/db. Absent: the embedded SQLite database in DATA_DIR. */
  @OptionalEnv(
    Matches(/^(mysql|mariadb):\/\/[^\s]+$/, {
      message: 'DATABASE_URL must look like mysql://user:pass@host:3306/database',
    }),
  )
  DATABASE_URL?: string;

  /** Folder of the embedded database and of the generated development signing key. */
  @TextEnv() DATA_DIR = './data';

  /** `npm start` (tools/seed) fills an empty embedded database with the demo; the service never does. */
  @BooleanEnv() DEMO_SEED = true;

  @IsIn(JWT_ALGORITHMS)
  JWT_ALGORITHM: JwtAlgorithm = 'ES256';

  /**
   * The commit the build was made from: the image sets it from `--build-arg REVISION`. Shown in
   * /health, the start-up line and pos_api_build_info; absent: `unknown`.
   */
  @OptionalEnv(
    Matches(/^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$/, {
      message: 'BUILD_REVISION must be a commit id or a tag (letters, digits, . _ -)',
    }),
  )
  BUILD_REVISION?: string;

  /** PEM private key (ES256) or shared secret (HS256, at least 32 characters). */
  @OptionalEnv(IsString()) JWT_PRIVATE_KEY?: string;

  @OptionalEnv(IsString()) JWT_PRIVATE_KEY_FILE?: string;

  @OptionalEnv(IsString(), MaxLength(128)) JWT_KEY_ID?: string;

  /**
   * Retired verification keys still accepted until their last token expires: a JSON object
   * {"kid": "PEM or secret", ...}.
   */
  @OptionalEnv(IsString()) JWT_PREVIOUS_PUBLIC_KEYS?: string;

  @TextEnv() JWT_ISSUER = 'pos-read-api';

  @TextEnv() JWT_AUDIENCE = 'pos-read-api/v1.0';

  @IntegerEnv(1, 1000) LOGIN_MAX_FAILURES = 5;

  @IntegerEnv(1, 24 * 60) LOGIN_LOCKOUT_MINUTES = 15;

  @IntegerEnv(1, 24 * 60) LOGIN_FAILURE_WINDOW_MINUTES = 15;

  @IntegerEnv(1, 100000) TOKEN_RATE_LIMIT_PER_MINUTE = 30;

  /**
   * Expensive reads (digests, day closes, the report) running at once on an instance, every
   * user's: the capacity the fair queue shares out (decision 54.1). Each holds at most two
   * database connections, so DATABASE_POOL_SIZE keeps the rest for lists and feeds.
   */
  @IntegerEnv(1, 1000) DIGEST_MAX_IN_FLIGHT = 4;

  /** Expensive reads of one user running at once on an instance: their share (decision 54.1). */
  @IntegerEnv(1, 1000) DIGEST_MAX_IN_FLIGHT_PER_USER = 2;

  /** Expensive reads of one user waiting for a turn on an instance; one more: 429. */
  @IntegerEnv(0, 1000) DIGEST_QUEUE_PER_USER = 4;

  /** Digests a minute per user, counted across instances through REDIS_URL (issue 44); more: 429. */
  @IntegerEnv(1, 100000) DIGEST_CALLS_PER_MINUTE = 120;

  /**
   * Rows the expensive reads of one user may read a minute, counted across instances through
   * REDIS_URL (decision 54.1): a 92-day digest costs its rows, one answered from the cache
   * almost nothing; the bulk read's rows are not counted (decision 55.4.1). A user past it: 429
   * until their minute ends.
   */
  @IntegerEnv(1, 1_000_000_000) DIGEST_ROWS_PER_MINUTE = 2_000_000;

  /**
   * How long a digest's checksum of a date stays in the cache (issue 45), in Redis with
   * REDIS_URL, else in memory; 0 turns the cache off. An entry answers only while the date's
   * fingerprint is the one it was computed for; a day close's day, only while the binary log
   * vouches for it.
   */
  @IntegerEnv(0, 90 * 24 * 3600) DIGEST_CACHE_TTL_SECONDS = 7 * 24 * 3600;

  /** Dates the in-memory digest cache holds at most (without REDIS_URL); ~200 bytes each. */
  @IntegerEnv(1, 10_000_000) DIGEST_CACHE_MAX_ENTRIES = 100_000;

  /**
   * Which X-Forwarded-For entries to believe for the client address: false (none), a number of
   * proxy hops, the proxies' addresses/CIDRs, or true (the leftmost, client-written entry).
   */
  @Transform(toTrustProxy)
  @IsTrustProxy()
  TRUST_PROXY: TrustProxy = false;

  /**
   * Leading bits of an IPv6 address that make one client (sign-in budgets, the token route's
   * per-address limit, the log's `client`): 64, the network every home connection gets.
   */
  @IntegerEnv(1, 128) CLIENT_IPV6_PREFIX_LENGTH = 64;

  /**
   * How often each instance re-reads the token revocations (`revoke-tokens`): a revocation takes
   * effect on every instance within this time, and no request waits on the database for it.
   */
  @IntegerEnv(100, 60_000) TOKEN_REVOCATION_REFRESH_MS = 5_000;

  /** Secret that signs pagination cursors; derived from the signing key when absent. */
  @OptionalEnv(IsString(), MinLength(32)) CURSOR_SECRET?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * Redis holding the counters of the report's rate limit, shared by every instance:
   * redis://[user:pass@]host:6379[/db] or rediss://. Absent: counters in memory (one instance).
   */
  @OptionalEnv(
    Matches(/^rediss?:\/\/[^\s]+$/, { message: 'REDIS_URL must look like redis://host:6379' }),
  )
  REDIS_URL?: string;

  /** Prefix of the service's keys in Redis; instances of one deployment must share it. */
  @TextEnv(64) REDIS_KEY_PREFIX = 'pos-read-api:';

  /** Port of the management server (health, readiness, metrics); never exposed publicly. */
  @IntegerEnv(0, 65535) MANAGEMENT_PORT = DEFAULT_MANAGEMENT_PORT;

  /**
   * Address of the management server: loopback by default, since on a bare host only a local
   * agent scrapes it and its metrics have no authentication; the image sets 0.0.0.0, since a
   * container's probes and Prometheus reach it on the pod's address (decision 44.6).
   */
  @IsString() MANAGEMENT_HOST = '127.0.0.1';

  /** Write the JSON log lines to this file instead of standard output. */
  @OptionalEnv(IsString()) LOG_FILE?: string;

  /** How long a SIGTERM waits for requests in flight before cutting them. */
  @IntegerEnv(0, 600_000) SHUTDOWN_TIMEOUT_MS = 10_000;

  /** MySQL: how long opening a connection may take before the request fails with 503. */
  @IntegerEnv(100, 120_000) DATABASE_CONNECT_TIMEOUT_MS = 5_000;

  /** MySQL: how long one query may take before the request fails with 503 (0: no limit). */
  @IntegerEnv(0, 3_600_000) DATABASE_QUERY_TIMEOUT_MS = 10_000;

  /** MySQL: connections in the pool of each instance. */
  @IntegerEnv(1, 1000) DATABASE_POOL_SIZE = 10;

  // --- Read replicas (docs/operations.md, "Read replicas") ---

  /**
   * MySQL/MariaDB replicas of DATABASE_URL for the data routes' reads, comma-separated
   * mysql:// URLs. Absent: every read goes to the primary. Sign-in and api_ tables never use them.
   */
  @OptionalEnv(IsString()) DATABASE_READ_URLS?: string;

  /** A replica further behind than this stops taking reads until it catches up. */
  @IntegerEnv(1, 86_400) MAX_REPLICA_LAG_SECONDS = 30;

  /** How often each replica's lag (SHOW REPLICA STATUS) and reachability are checked. */
  @IntegerEnv(100, 600_000) REPLICA_CHECK_INTERVAL_MS = 5_000;

  // --- The binary log (issue 57, docs/operations.md "The binary log") ---

  /**
   * The primary's binary log, followed so a cached digest needs no read while nothing changed:
   * mysql://pos_api_binlog:<password>@primary:3306/backoffice, the account of
   * sql/binlog-account.sql. Absent: digests are checked by fingerprints only.
   */
  @OptionalEnv(
    Matches(/^(mysql|mariadb):\/\/[^\s]+\/[^\s/]+$/, {
      message: 'BINLOG_DATABASE_URL must look like mysql://user:pass@primary:3306/database',
    }),
  )
  BINLOG_DATABASE_URL?: string;

  /**
   * The reader's server_id on the primary, unique among its replicas and readers (one per
   * instance). Default: a random one at each start.
   */
  @IntegerEnv(1, 4_294_967_295) BINLOG_SERVER_ID = 1_000_000 + Math.floor(Math.random() * 1e9);

  /** How long a digest waits for the reader to reach the primary's position; past it, fingerprints. */
  @IntegerEnv(10, 10_000) BINLOG_WAIT_MS = 1_000;

  /**
   * With REDIS_URL, one instance reads the log, elected by a lease in Redis of this many ms,
   * renewed every third of it: a dead reader's successor takes over within about 1⅓ of it.
   */
  @IntegerEnv(2_000, 60_000) BINLOG_LEASE_MS = 5_000;

  /**
   * A checksum the log vouches for is checked by its fingerprint again after this long (and
   * stamped anew): the bound on how long an edit the log never carries (sql_log_bin = 0) hides.
   */
  @IntegerEnv(1, 30 * 24 * 3600) BINLOG_RECHECK_SECONDS = 3600;

  // --- HTTP server timeouts (issue 12): slow clients cannot hold connections. ---------------

  /** Receiving a whole request (headers and body) may take this long; then 408 and closed. */
  @IntegerEnv(100, 600_000) REQUEST_TIMEOUT_MS = 30_000;

  /** Receiving the request line and headers may take this long (at most REQUEST_TIMEOUT_MS). */
  @IntegerEnv(100, 600_000) HEADERS_TIMEOUT_MS = 10_000;

  /** A kept-alive connection with no request, or a socket with no traffic, is closed after this. */
  @IntegerEnv(100, 3_600_000) IDLE_TIMEOUT_MS = 60_000;

  /**
   * A request's database work (and its wait for a pool connection) must be done within this,
   * counted from its arrival; past it, 503 with Retry-After and its queries cancelled (decision
   * 27.3). Default below REQUEST_TIMEOUT_MS's 30 s. A feed's Wait is not counted; the report's
   * stream counts to its first byte.
   */
  @IntegerEnv(500, 600_000) REQUEST_DEADLINE_MS = 15_000;

  // --- Waiting feeds (issue 24, docs/sync.md "Waiting for the next record") ------------------

  /** Feed requests held by `Wait` on one instance; past it, 503 with Retry-After. */
  @IntegerEnv(0, 1_000_000) FEED_MAX_WAITERS = 5_000;

  /** Feed requests of one user (token subject) held at once on one instance; past it, 429. */
  @IntegerEnv(1, 100_000) FEED_MAX_WAITERS_PER_USER = 10;

  /** How often each table that somebody waits on is polled for its highest id per shop. */
  @IntegerEnv(50, 10_000) FEED_POLL_INTERVAL_MS = 250;

  // --- Sign-in under attack (docs/auth.md "Under attack") ---------------------------------

  /**
   * Failures of one name from all client addresses together that lock the name for every
   * address (LOGIN_MAX_FAILURES counts those of one address). Bounds a many-address attacker.
   */
  @IntegerEnv(1, 100000) LOGIN_MAX_FAILURES_PER_NAME = 20;

  /** Every 401 of the token route leaves no sooner than this after the request (refusal floor). */
  @IntegerEnv(0, 10_000) LOGIN_MIN_RESPONSE_MS = 200;

  /** Password verifications running at once (default: cores - 1, at least 1). */
  @IntegerEnv(1, 256) PASSWORD_HASH_CONCURRENCY = defaultHashConcurrency();

  /** Sign-ins waiting for a verification slot; past it the token route answers 503 at once. */
  @IntegerEnv(0, 100_000) PASSWORD_HASH_QUEUE_SIZE = 32;

  // --- Responses and logs (issue 17) -------------------------------------------------------

  /**
   * Compress JSON and CSV responses (zstd, br, gzip, negotiated by Accept-Encoding): on|off.
   * Off for deployments where a proxy in front compresses.
   */
  @BooleanEnv() COMPRESSION = true;

  /** With tracing on (OTEL_*, read at start by operations/tracing): continue a caller's traceparent. */
  @BooleanEnv() TRACE_TRUST_INCOMING = false;

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
