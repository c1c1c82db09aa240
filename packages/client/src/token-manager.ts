import { AuthenticationError, errorOf, NetworkError } from './errors.js';
import type { TokenResponse } from './types.js';

export interface Credentials {
  username: string;
  password: string;
}
/** Where the password comes from; called for each token request, never cached by the client. */
export type CredentialsProvider = () => Credentials | Promise<Credentials>;

export type ClientLogger = (
  event: string,
  fields: Record<string, string | number | boolean | undefined>,
) => void;

export interface TokenManagerOptions {
  url: string;
  credentials: CredentialsProvider;
  fetch: typeof fetch;
  now: () => number;
  renewBeforeMs: number;
  log: ClientLogger;
}

interface Held {
  token: string;
  expiresAt: number;
}

/**
 * Authentication rule 9 of the contract, for one client:
 * - one token, reused by every call (never a token per call);
 * - renewed `renewBeforeMs` (5 minutes) before `expiration`, so never used past it;
 * - concurrent calls that need a token share one request (single flight);
 * - the token route is called once per need: a 401, 403 or 429 from it is thrown, never retried.
 */
export class TokenManager {
  private held?: Held;
  private pending?: Promise<Held>;
  private requests = 0;

  constructor(private readonly options: TokenManagerOptions) {}

  /** Token requests made so far by this client. */
  get tokenRequests(): number {
    return this.requests;
  }

  /** A token valid for at least `renewBeforeMs` more, issuing one only when needed. */
  async token(): Promise<Held> {
    const held = this.held;
    if (held && this.options.now() < held.expiresAt - this.options.renewBeforeMs) return held;
    this.pending ??= this.issue().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets `token` if it is still the held one (a data route refused it). */
  invalidate(token: string): void {
    if (this.held?.token === token) this.held = undefined;
  }

  private async issue(): Promise<Held> {
    this.requests++;
    const what = 'POST /api/v1.0/Token';
    let response: Response;
    try {
      const { username, password } = await this.options.credentials();
      response = await this.options.fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ username, password }),
        // The body is the password: a redirect (to another origin or not) is an answer, never
        // a request sent on with the credentials.
        redirect: 'manual',
      });
    } catch (error) {
      throw new NetworkError(`${what} failed: ${describe(error)}`);
    }
    if (!response.ok) {
      const note =
        response.status === 401
          ? ' The credentials were refused; not retried, as repeated attempts lock the account.'
          : isRedirect(response)
            ? ' Redirects of the token request are not followed, so the credentials go nowhere else: use the address the service really answers on as the base URL.'
            : '';
      throw await errorOf(response, what, this.options.now(), note);
    }
    const body = (await response.json()) as TokenResponse;
    const expiresAt = Date.parse(body.expiration);
    if (typeof body.token !== 'string' || Number.isNaN(expiresAt)) {
      throw new AuthenticationError(`${what} answered 200 without a token and an expiration.`);
    }
    this.held = { token: body.token, expiresAt };
    this.options.log('token.issued', { expiration: body.expiration });
    return this.held;
  }
}

/** A redirect answered to `redirect: 'manual'` (3xx in Node; an opaque status 0 in browsers). */
const isRedirect = (response: Response): boolean =>
  response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);

/** What a system or undici error code means, for the codes an unreachable service gives. */
const CAUSES: Array<[RegExp, string]> = [
  [/^ECONNREFUSED$/, 'connection refused: nothing listens there'],
  [/^(ENOTFOUND|EAI_NONAME)$/, 'host not found (DNS)'],
  [/^EAI_AGAIN$/, 'DNS lookup failed for now'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/, 'connection reset'],
  [/^(EHOSTUNREACH|ENETUNREACH)$/, 'no route to the host'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/, 'timed out connecting'],
  [/^(UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/, 'timed out waiting for the answer'],
  [/^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|HOSTNAME_MISMATCH)/, 'TLS failed'],
];

/**
 * A network error's cause, without anything the request carried: the code fetch's TypeError
 * carries as its `cause` (or the first of an AggregateError's, when several addresses were
 * tried) and what it means, e.g. `ECONNREFUSED, connection refused: nothing listens there`;
 * without a code, the cause's first line (`bad port`); a timeout of our own by its name.
 */
export function describe(error: unknown): string {
  // Read by shape, not instanceof: fetch's errors may come from another realm (a vm, jest).
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name !== 'string') return 'unknown error';
  if (name === 'TimeoutError') return 'timed out (TimeoutError)';
  type Cause = { code?: unknown; message?: unknown; errors?: Array<{ code?: unknown }> };
  const cause = (error as { cause?: Cause }).cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  if (typeof code === 'string') {
    const meaning = CAUSES.find(([pattern]) => pattern.test(code))?.[1];
    return `${name} (${code}${meaning ? `, ${meaning}` : ''})`;
  }
  const text = typeof cause?.message === 'string' ? cause.message.split('\n')[0].slice(0, 120) : '';
  return text ? `${name} (${text})` : name;
}
