import { API_USER_ROLE } from '../../auth/caller';
import type { ProblemCase, ProblemStatus } from '../problem-responses';

/** 401 and 403 of every route behind the bearer guard. */
export const BEARER_PROBLEMS: Partial<Record<ProblemStatus, ProblemCase>> = {
  401: {
    description:
      'Token missing, expired or invalid, or the Authorization header is not exactly ' +
      '`Bearer <token>`. Get a new token and retry once; stop if that fails too.',
    slug: 'unauthorized',
    title: 'Unauthorized',
    detail: 'The token has expired: request a new one from /api/v1.0/Token.',
  },
  403: {
    description: `The token does not carry the ${API_USER_ROLE} role.`,
    slug: 'forbidden',
    title: 'Forbidden',
    detail: `The token does not carry the ${API_USER_ROLE} role.`,
  },
};

/** 400 of the routes that read ShopCode, From, To (and Cursor, Limit). */
export const QUERY_PROBLEM: ProblemCase = {
  description:
    'A query parameter is unknown, repeated, too long or malformed (a zone designator, an ' +
    'impossible date, From after To, a tampered cursor): `errors[]` names each one.',
  slug: 'validation-error',
  title: 'Your request parameters did not validate',
  detail:
    'From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).',
  errors: [
    {
      field: 'From',
      message: 'it must not carry a zone designator (the shop-local time is meant)',
    },
  ],
};
