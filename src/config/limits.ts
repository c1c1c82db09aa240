/**
 * The limits of the contract and the service's own bounds, each defined once: the code that
 * enforces a limit and the documentation that states it (OpenAPI descriptions, problem texts)
 * both import it from here, so they cannot drift apart.
 */

/** Records per page of the cursor endpoints: Limit's maximum and its default (contract: 500). */
export const MAX_PAGE_LIMIT = 500;

/** TransactionDetailReport calls a minute per user, across all instances (contract: 12). */
export const REPORT_CALLS_PER_MINUTE = 12;

/** Longest period of one TransactionDetailReport: From and To at most this many days apart. */
export const MAX_REPORT_DAYS = 31;

/** Longest period of one digest (sales/payments/cash-movements/digest): From to To, in days. */
export const MAX_DIGEST_DAYS = 92;

/**
 * Longest period of one bulk read (GET /sales/bulk, ...): From to To, in days; three years and
 * a day, so three calendar years always fit in one.
 */
export const MAX_BULK_DAYS = 1_096;

/** Records between two checkpoint lines of a bulk read: where a dropped stream resumes. */
export const BULK_CHECKPOINT_RECORDS = 1_000;

/** Longest `Wait` of a feed request, in seconds (IDLE_TIMEOUT_MS must stay above it). */
export const MAX_FEED_WAIT_SECONDS = 20;

/** Lifetime of an issued token (contract: 2 days, 48 hours). */
export const TOKEN_LIFETIME_HOURS = 48;
export const TOKEN_LIFETIME_SECONDS = TOKEN_LIFETIME_HOURS * 60 * 60;

/** How long before `expiration` clients should renew a token (contract, client rule 9). */
export const TOKEN_RENEWAL_MINUTES = 5;

/** Longest ShopCode accepted (bo_shops.code is VARCHAR(64)). */
export const MAX_SHOP_CODE_LENGTH = 64;

/** Longest value of any query parameter (a cursor is the longest legitimate one). */
export const MAX_PARAMETER_LENGTH = 1024;

/** Largest request body accepted (the token request is tiny). */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** Longest username of a token request: the width of api_login_failures.username_key. */
export const USERNAME_MAX_LENGTH = 256;

/** Longest password of a token request. */
export const PASSWORD_MAX_LENGTH = 1024;

/** Deepest nesting of arrays and objects in a JSON body (the token request needs 1). */
export const MAX_JSON_DEPTH = 32;

/**
 * The management server's port (health, readiness, metrics) when MANAGEMENT_PORT is not set:
 * AppConfig's default, and what tracing, which starts before AppConfig is read, leaves to the
 * HTTP instrumentation as it is.
 */
export const DEFAULT_MANAGEMENT_PORT = 9464;

/**
 * Expensive reads (digests, day closes, the report) waiting for a turn on one instance, every
 * user's together (decision 54.1); one more is 503: the instance cannot serve anyone in time.
 */
export const MAX_WAITING_EXPENSIVE_READS = 256;
