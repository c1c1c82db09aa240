import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { isDeadlineExceeded } from '../deadline/deadline';
import { isDatabaseUnavailable } from './database-errors';
import { ProblemException, problemType } from './problem';
import type { ProblemDetailsDto } from './problem-details.dto';

export interface ProblemResponse {
  status: number;
  body: ProblemDetailsDto;
  headers: Record<string, string>;
  /** True for errors the service did not mean to answer (logged with their stack). */
  unexpected: boolean;
}

/** Errors Fastify raises before a handler runs (body parsing, content type, size). */
const FASTIFY_DETAILS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty: send a JSON object.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
};

const SLUGS: Record<number, string> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  406: 'not-acceptable',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  429: 'too-many-requests',
  500: 'internal-error',
  503: 'service-unavailable',
};

function build(
  status: number,
  detail: string,
  instance: string,
  slug?: string,
  title?: string,
): ProblemDetailsDto {
  return {
    type: problemType(slug ?? SLUGS[status] ?? `http-${status}`),
    title: title ?? STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    instance,
  };
}

function httpExceptionDetail(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  if (typeof message === 'string') return message;
  return error.message;
}

/**
 * Turns anything thrown while serving a request into an RFC 9457 problem. Never copies a stack,
 * SQL text or driver message into the body.
 */
export function toProblem(error: unknown, instance: string): ProblemResponse {
  if (error instanceof ProblemException) {
    const body = build(error.getStatus(), error.detail, instance, error.slug, error.title);
    if (error.errors) body.errors = error.errors;
    return { status: error.getStatus(), body, headers: error.headers, unexpected: false };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const headers: Record<string, string> = {};
    if (status === 429) headers['Retry-After'] = '60';
    const detail = status === 404 ? 'No such resource.' : httpExceptionDetail(error);
    return { status, body: build(status, detail, instance), headers, unexpected: status >= 500 };
  }
  const fastifyError = error as { code?: unknown; statusCode?: unknown };
  if (typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_')) {
    const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 400;
    if (status < 500) {
      const detail = FASTIFY_DETAILS[fastifyError.code] ?? 'The request could not be read.';
      return { status, body: build(status, detail, instance), headers: {}, unexpected: false };
    }
  }
  if (isDeadlineExceeded(error)) {
    // Shed by the request's deadline (decision 27.3): the database answered too slowly.
    const body = build(
      503,
      'The request could not be served within its deadline: the database is answering slowly; retry shortly.',
      instance,
    );
    return { status: 503, body, headers: { 'Retry-After': '5' }, unexpected: false };
  }
  if (isDatabaseUnavailable(error)) {
    const body = build(503, 'The database is unavailable right now; retry shortly.', instance);
    return { status: 503, body, headers: { 'Retry-After': '5' }, unexpected: true };
  }
  const body = build(
    500,
    'An unexpected error occurred. Quote the request id when reporting it.',
    instance,
  );
  return { status: 500, body, headers: {}, unexpected: true };
}
