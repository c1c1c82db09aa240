import type { ProblemCase, ProblemStatus } from '../common/openapi/problem-responses';
import { apiPath } from '../config/api-prefix';
import { API_USER_ROLE } from './caller';

/** 401 and 403 of every route behind the bearer guard (BearerAuthGuard, ApiUserGuard). */
export const BEARER_PROBLEMS: Partial<Record<ProblemStatus, ProblemCase>> = {
  401: {
    description:
      'Token missing, expired or invalid, or the Authorization header is not exactly ' +
      '`Bearer <token>`. Get a new token and retry once; stop if that fails too.',
    slug: 'unauthorized',
    title: 'Unauthorized',
    detail: `The token has expired: request a new one from ${apiPath('Token')}.`,
  },
  403: {
    description: `The token does not carry the ${API_USER_ROLE} role.`,
    slug: 'forbidden',
    title: 'Forbidden',
    detail: `The token does not carry the ${API_USER_ROLE} role.`,
  },
};
