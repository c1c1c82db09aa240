import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemType } from './problem';
import type { ProblemDetailsDto } from './problem-details.dto';

/** The answers to requests Node's HTTP parser refuses before any route or filter sees them. */
const CLIENT_ERRORS: Record<string, { status: number; slug: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    slug: 'request-header-fields-too-large',
    detail: 'The request line and headers exceed 16 KiB; send a shorter URL or fewer headers.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    slug: 'request-timeout',
    detail: 'The request was not received in time.',
  },
};

const MALFORMED = {
  status: 400,
  slug: 'malformed-request',
  detail: 'The request is not well-formed HTTP/1.1.',
};

/** The raw HTTP response for a parser error: a problem body, and the connection closed. */
function clientErrorResponse(code: string | undefined): string {
  const { status, slug, detail } = (code && CLIENT_ERRORS[code]) || MALFORMED;
  const requestId = randomUUID();
  const title = STATUS_CODES[status] ?? 'Client error';
  const problem: ProblemDetailsDto = {
    type: problemType(slug),
    title,
    status,
    detail,
    instance: `urn:uuid:${requestId}`,
    requestId,
  };
  const body = JSON.stringify(problem);
  return (
    `HTTP/1.1 ${status} ${title}\r\n` +
    `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Fastify's clientErrorHandler: what Node's parser refuses (a URL or headers over 16 KiB, bytes
 * that are not HTTP) is answered as application/problem+json like every other error, instead of
 * Fastify's own JSON shape.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.write(clientErrorResponse(error.code));
  socket.destroy(error);
}
