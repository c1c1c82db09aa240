import { MAX_PARAMETER_LENGTH } from '../../config/limits';
import { badRequest } from '../errors/problem';
import type { ProblemCase } from '../openapi/problem-responses';

export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * Reads query parameters whose names match case-insensitively (`shopcode` is `ShopCode`).
 * Unknown names, a name given twice and over-long values are a 400 naming the parameter.
 * Returns the values keyed by their canonical names.
 */
export function readQueryParameters<K extends string>(
  raw: RawQuery,
  allowed: readonly K[],
): Partial<Record<K, string>> {
  const byLower = new Map(allowed.map((name) => [name.toLowerCase(), name] as const));
  const result: Partial<Record<K, string>> = {};
  const errors: Array<{ field: string; message: string }> = [];
  for (const [name, value] of Object.entries(raw ?? {})) {
    const canonical = byLower.get(name.toLowerCase());
    if (!canonical) {
      errors.push({
        field: name,
        message: `unknown parameter; expected one of ${allowed.join(', ')}`,
      });
      continue;
    }
    if (Array.isArray(value) || result[canonical] !== undefined) {
      errors.push({ field: canonical, message: 'given more than once' });
      continue;
    }
    if (value === undefined) continue;
    if (value.length > MAX_PARAMETER_LENGTH) {
      errors.push({ field: canonical, message: `longer than ${MAX_PARAMETER_LENGTH} characters` });
      continue;
    }
    result[canonical] = value;
  }
  if (errors.length > 0) {
    throw badRequest(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
  }
  return result;
}

/** The 400 of the routes that read ShopCode, From, To (and Cursor, Limit), as documented. */
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
