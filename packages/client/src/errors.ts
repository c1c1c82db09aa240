import type { ProblemDetails } from './types.js';

/**
 * Every error the client throws. Messages are built from the status, the method, the path and
 * the service's problem title/detail: never from a header, so never from the token.
 */
export class PosReadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly problem?: ProblemDetails,
    /** Seconds the service asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 401: credentials refused by the token route, or a data route refused a fresh token too. */
export class AuthenticationError extends PosReadError {}

/** 403: the user lacks the role ApiUser. */
export class ForbiddenError extends PosReadError {}

/** 429: too many calls (the report's 12 a minute, or the token route's limits and lock-out). */
export class RateLimitError extends PosReadError {}

/** 503 (or 502/504) after the retries allowed, or at once for the token route. */
export class ServiceUnavailableError extends PosReadError {}

/** Any other refusal, such as 400 for a bad parameter (the problem names it). */
export class ApiError extends PosReadError {}

/**
 * A shop asked for (`shopCode`, pos-read's `--shop`) that is not one of the token's: codes are
 * compared exactly, as the service does, so another case of a code is not it either.
 */
export class UnknownShopError extends PosReadError {
  constructor(
    message: string,
    /** The codes asked for that the token does not have. */
    readonly unknown: string[],
    /** The codes the token has (`GET /shops`). */
    readonly known: string[],
  ) {
    super(message);
  }

  static of(unknown: string[], shops: Array<{ code: string }>): UnknownShopError {
    const known = shops.map((shop) => shop.code);
    const has = known.length > 0 ? `its shops are ${known.join(', ')}` : 'it has no shop';
    return new UnknownShopError(
      `the token may not read the shop${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: ` +
        `${has} (codes are compared exactly, as the service does)`,
      unknown,
      known,
    );
  }
}

/** The service could not be reached (after the retries allowed for a GET). */
export class NetworkError extends PosReadError {}

/** Reads Retry-After (seconds or an HTTP date) as seconds; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

async function problemOf(response: Response): Promise<ProblemDetails | undefined> {
  try {
    const text = await response.text();
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as ProblemDetails) : undefined;
  } catch {
    return undefined;
  }
}

const CLASSES: Record<number, typeof PosReadError> = {
  401: AuthenticationError,
  403: ForbiddenError,
  429: RateLimitError,
  502: ServiceUnavailableError,
  503: ServiceUnavailableError,
  504: ServiceUnavailableError,
};

/** The typed error of a refused response; consumes its body. */
export async function errorOf(
  response: Response,
  what: string,
  now: number,
  note = '',
): Promise<PosReadError> {
  const problem = await problemOf(response);
  const retryAfter = retryAfterSeconds(response.headers, now);
  const detail = [problem?.title, problem?.detail].filter(Boolean).join(': ');
  const wait = retryAfter === undefined ? '' : ` Retry after ${retryAfter} s.`;
  const message = `${what} answered ${response.status}${detail ? ` (${detail})` : ''}.${wait}${note}`;
  const Class = CLASSES[response.status] ?? ApiError;
  return new Class(message, response.status, problem, retryAfter);
}
