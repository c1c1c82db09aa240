import { CursorResources } from './generated/resources.js';
import { BusinessDaysResource, ReportsResource, ShopsResource } from './resources.js';
import { DEFAULT_RETRY, RetryOptions, Sleep, sleep } from './retry.js';
import { ClientLogger, CredentialsProvider, TokenManager } from './token-manager.js';
import { Transport } from './transport.js';
import { mirror, type MirrorOptions, type MirrorSummary } from './mirror/mirror.js';

export interface PosReadClientOptions {
  /**
   * The service's address, such as `https://pos-api.example.com` (paths start with /api/v1.0).
   * `http://` only on loopback (localhost, 127.0.0.0/8, [::1]) unless `allowInsecureHttp`.
   */
  baseUrl: string;
  /**
   * Allows an `http://` base URL that is not loopback: the password and the token would cross
   * the network in clear text. For a private network that encrypts below HTTP, on purpose only.
   */
  allowInsecureHttp?: boolean;
  username?: string;
  password?: string;
  /** Instead of username and password: called for each token request. */
  credentials?: CredentialsProvider;
  /** How long before `expiration` the token is renewed (default 5 minutes, as rule 9 advises). */
  renewBeforeMs?: number;
  retry?: RetryOptions;
  /** Receives what the client does (token issued, retries); never the token or the password. */
  logger?: ClientLogger;
  /** For tests and instrumentation: the fetch, the clock, the wait and the jitter's randomness. */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
}

export const DEFAULT_RENEW_BEFORE_MS = 5 * 60 * 1000;

/**
 * A client of the POS read API v1.0 that follows the contract's client rules: one token per
 * client, renewed before it expires, one retry after a 401; pages followed by cursor; the
 * report's limit and outages waited out within bounds. Its cursor resources (`sales`,
 * `payments`, `cashMovements`, `cashDrawerSessions`, …) are generated from the OpenAPI document's
 * list operations (`CursorResources`).
 */
export class PosReadClient extends CursorResources {
  readonly shops: ShopsResource;
  readonly reports: ReportsResource;
  /** The day close by business date (GET /business-days). */
  readonly businessDays: BusinessDaysResource;
  /** The service's address, as given (without a trailing slash). */
  readonly baseUrl: string;
  private readonly tokens: TokenManager;

  constructor(options: PosReadClientOptions) {
    const { base, tokens, transport } = connection(options);
    super(transport);
    this.baseUrl = base;
    this.tokens = tokens;
    this.shops = new ShopsResource(transport);
    this.reports = new ReportsResource(transport);
    this.businessDays = new BusinessDaysResource(transport);
  }

  /** When the held token expires (issuing one if none is held). */
  async tokenExpiration(): Promise<Date> {
    return new Date((await this.tokens.token()).expiresAt);
  }

  /** The token itself, for a tool that must hand it on (`pos-read token --show`). */
  async token(): Promise<string> {
    return (await this.tokens.token()).token;
  }

  /**
   * Keeps a SQLite file equal to what the API returns for the shops: one pass (catch up the
   * feeds, compare the window's digests, re-read the days that differ), or with `follow` until
   * the signal. Needs the optional dependency better-sqlite3 (README, "Mirror").
   */
  mirror(options: MirrorOptions): Promise<MirrorSummary> {
    return mirror(this, options);
  }

  /** How many token requests this client has made. */
  get tokenRequests(): number {
    return this.tokens.tokenRequests;
  }
}

/** The token manager and the transport a client's resources share. */
function connection(options: PosReadClientOptions) {
  const credentials = options.credentials ?? fixedCredentials(options);
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const log = options.logger ?? (() => undefined);
  const base = checkedBaseUrl(options.baseUrl, options.allowInsecureHttp === true);
  const tokens = new TokenManager({
    url: `${base}/api/v1.0/Token`,
    credentials,
    fetch: doFetch,
    now,
    renewBeforeMs: options.renewBeforeMs ?? DEFAULT_RENEW_BEFORE_MS,
    log,
  });
  const transport = new Transport({
    baseUrl: base,
    fetch: doFetch,
    tokens,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    sleep: options.sleep ?? sleep,
    now,
    random: options.random ?? Math.random,
    log,
  });
  return { base, tokens, transport };
}

/** The base URL without a trailing slash, refused when it would send secrets in clear text. */
function checkedBaseUrl(baseUrl: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`PosReadClient: baseUrl ${JSON.stringify(baseUrl)} is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`PosReadClient: baseUrl must be https:// (or http:// on loopback).`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw new TypeError(
      `PosReadClient: ${url.origin} is http:// on the network: the password and the token would ` +
        'travel in clear text. Use https://, or set allowInsecureHttp (pos-read: --allow-insecure-http) on purpose.',
    );
  }
  return baseUrl.replace(/\/+$/, '');
}

const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '[::1]' ||
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);

function fixedCredentials(options: PosReadClientOptions): CredentialsProvider {
  const { username, password } = options;
  if (!username || !password) {
    throw new TypeError('PosReadClient: give username and password, or a credentials provider.');
  }
  return () => ({ username, password });
}
