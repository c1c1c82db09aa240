import { HttpException, HttpStatus } from '@nestjs/common';
import type { ProblemFieldErrorDto } from './problem-details.dto';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export function problemType(slug: string): string {
  return `urn:pos-read-api:problem:${slug}`;
}

export interface ProblemOptions {
  slug: string;
  title: string;
  detail: string;
  errors?: ProblemFieldErrorDto[];
  /** Extra response headers (WWW-Authenticate, Retry-After, ...). */
  headers?: Record<string, string>;
}

/**
 * An HTTP error the service means to answer, with its problem type and any headers.
 * The global filter turns it into application/problem+json.
 */
export class ProblemException extends HttpException {
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly errors?: ProblemFieldErrorDto[];
  readonly headers: Record<string, string>;

  constructor(status: HttpStatus, options: ProblemOptions) {
    super(options.detail, status);
    this.slug = options.slug;
    this.title = options.title;
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (detail: string, errors?: ProblemFieldErrorDto[]): ProblemException =>
  new ProblemException(HttpStatus.BAD_REQUEST, {
    slug: errors ? 'validation-error' : 'bad-request',
    title: errors ? 'Your request parameters did not validate' : 'Bad request',
    detail,
    errors,
  });

export const unauthorized = (detail: string, bearerError?: 'invalid_token'): ProblemException =>
  new ProblemException(HttpStatus.UNAUTHORIZED, {
    slug: 'unauthorized',
    title: 'Unauthorized',
    detail,
    headers: {
      'WWW-Authenticate': bearerError
        ? `Bearer realm="pos-read-api", error="${bearerError}"`
        : 'Bearer realm="pos-read-api"',
    },
  });

export const forbidden = (detail: string): ProblemException =>
  new ProblemException(HttpStatus.FORBIDDEN, { slug: 'forbidden', title: 'Forbidden', detail });

export const tooManyRequests = (detail: string, retryAfterSeconds: number): ProblemException =>
  new ProblemException(HttpStatus.TOO_MANY_REQUESTS, {
    slug: 'too-many-requests',
    title: 'Too many requests',
    detail,
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

export const serviceUnavailable = (
  detail: string,
  retryAfterSeconds = 5,
  headers: Record<string, string> = {},
): ProblemException =>
  new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, {
    slug: 'service-unavailable',
    title: 'Service unavailable',
    detail,
    headers: { ...headers, 'Retry-After': String(retryAfterSeconds) },
  });
