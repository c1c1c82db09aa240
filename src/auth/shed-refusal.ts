import { ProblemException, serviceUnavailable } from '../common/errors/problem';

/**
 * Marks the 503 of a sign-in shed because the password-hashing queue was full, so the metrics
 * tell it from a database outage (also 503) without the token route knowing about metrics.
 */
const SHED = new WeakSet<object>();

export function shedSignIn(): ProblemException {
  const refusal = serviceUnavailable(
    'Too many sign-ins are being verified right now; try again in a moment.',
    1,
  );
  SHED.add(refusal);
  return refusal;
}

export function isShedSignIn(error: unknown): boolean {
  return typeof error === 'object' && error !== null && SHED.has(error);
}
