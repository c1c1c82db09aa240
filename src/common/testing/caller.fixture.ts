import type { CallerClaims } from '../caller-claims';

/** A verified ApiUser caller for unit specs, with any claim overridden. */
export function callerClaims(overrides: Partial<CallerClaims> = {}): CallerClaims {
  return {
    userId: '7',
    username: 'u',
    roles: ['ApiUser'],
    shopCodes: ['SHOP1', 'SHOP2'],
    tokenId: 'j',
    ...overrides,
  };
}
