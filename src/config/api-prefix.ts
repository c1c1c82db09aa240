/**
 * The version prefix of every API route (contract, Versioning: `/api/v1.0/`), set once with
 * `app.setGlobalPrefix` in app.factory.ts. The developer portal (/docs) and the management port
 * (health, metrics) are outside it.
 */
export const API_PREFIX = 'api/v1.0';

/** The path of an API route as clients call it and the document lists it: `/api/v1.0/sales`. */
export function apiPath(route: string): string {
  return `/${API_PREFIX}/${route}`;
}
