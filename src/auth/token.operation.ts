import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/openapi/problem-responses';
import { apiPath } from '../config/api-prefix';
import { BODY_LIMIT_BYTES, TOKEN_LIFETIME_HOURS, TOKEN_RENEWAL_MINUTES } from '../config/limits';
import { API_USER_ROLE } from './caller';
import { TokenRequestDto, TokenResponseDto } from './dto/token-request.dto';

const BODY_LIMIT_KIB = BODY_LIMIT_BYTES / 1024;

/** OpenAPI documentation of POST /api/v1.0/Token, the only anonymous operation. */
export const ApiIssueToken = (): MethodDecorator =>
  applyDecorators(
    ApiTags('Authentication'),
    ApiOperation({
      operationId: 'issueToken',
      summary: 'Issue a token',
      description:
        'Exchanges the username and password of a back-office user with the ' +
        `${API_USER_ROLE} role for a JWT valid ${TOKEN_LIFETIME_HOURS} hours. Send it as \`Authorization: Bearer <token>\` ` +
        'to every other operation. The most expensive operation: request a token once and reuse ' +
        `it until shortly before \`expiration\` (renew about ${TOKEN_RENEWAL_MINUTES} minutes before), never per call. ` +
        'There is no refresh; after a 401 retry once with a fresh token, then stop: repeated ' +
        'failures lock the username.',
      security: [],
    }),
    ApiBody({
      type: TokenRequestDto,
      required: true,
      description: `A JSON object (Content-Type: application/json), at most ${BODY_LIMIT_KIB} KiB.`,
    }),
    ApiOkResponse({
      type: TokenResponseDto,
      description: 'The token and when it expires.',
      headers: {
        'Cache-Control': { description: 'Always `no-store`.', schema: { type: 'string' } },
      },
    }),
    ApiProblemResponses(apiPath('Token'), {
      400: {
        description:
          'The body is not a JSON object with two non-empty strings `username` and `password` ' +
          '(missing or unknown field, wrong type, malformed JSON).',
        slug: 'validation-error',
        title: 'Your request parameters did not validate',
        detail: 'password should not be empty',
        errors: [{ field: 'password', message: 'password should not be empty' }],
      },
      401: {
        description: 'Wrong username or password, or the user is disabled (one answer for all).',
        slug: 'unauthorized',
        title: 'Unauthorized',
        detail: 'The username or password is incorrect.',
      },
      403: {
        description: `Valid credentials of a user without the ${API_USER_ROLE} role.`,
        slug: 'forbidden',
        title: 'Forbidden',
        detail: `This user does not have the ${API_USER_ROLE} role; ask a back-office administrator.`,
      },
      413: {
        description: `The body is larger than ${BODY_LIMIT_KIB} KiB.`,
        slug: 'payload-too-large',
        detail: 'The request body is too large.',
      },
      415: {
        description: 'The body is not application/json.',
        slug: 'unsupported-media-type',
        detail: 'Unsupported content type: send application/json.',
      },
      429: {
        description:
          'The username is locked after repeated failures (even with the right password), or ' +
          'more sign-ins of it than the failure budget allows are being verified at once, or ' +
          'this client address sent too many token requests. Wait Retry-After seconds.',
        slug: 'too-many-requests',
        title: 'Too many requests',
        detail: 'Too many failed sign-in attempts for this username; try again later.',
      },
      503: {
        description:
          'Too many sign-ins are being verified right now (nothing was checked, no attempt ' +
          'counted), or the database is unreachable or too slow to sign in within the ' +
          "request's deadline. Retry after Retry-After seconds.",
        slug: 'service-unavailable',
        detail: 'Too many sign-ins are being verified right now; try again in a moment.',
      },
    }),
  );
