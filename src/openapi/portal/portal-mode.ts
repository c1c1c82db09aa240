import type { AppEnv } from '../../config/app-config';

/**
 * How the developer portal behaves (contract, Authentication rule 10):
 * - `test-token` (development, preproduction): a username and password form issues a test token
 *   that then authorizes the operations; every operation can be tried.
 * - `read-only` (production): never asks for a password, accepts only a pasted token, and only
 *   GET operations can be tried.
 */
export type PortalMode = 'test-token' | 'read-only';

export function portalModeOf(appEnv: AppEnv): PortalMode {
  return appEnv === 'production' ? 'read-only' : 'test-token';
}
