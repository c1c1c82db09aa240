/**
 * Marks the refusal of the sign-in failure that locked its username, so the lockout metric
 * (operations/metrics) counts each lock once without reading the failure table again.
 */
const LOCKING = new WeakSet<object>();

export function asLockingFailure<E extends object>(error: E): E {
  LOCKING.add(error);
  return error;
}

export function isLockingFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && LOCKING.has(error);
}
