import { compare } from 'bcrypt';
import { HASH_COST_CEILINGS } from './hash-cost-ceilings';

/** $2a$/$2b$/$2y$, two-digit cost, 22-char salt + 31-char digest in bcrypt's base64 alphabet. */
const BCRYPT_PATTERN = /^\$2([aby])\$(\d{2})\$[./A-Za-z0-9]{53}$/;
const MIN_COST = 4;
/** Above the ceiling a hash is refused without hashing (PasswordVerifier runs the dummy instead). */
const BCRYPT_MAX_COST = HASH_COST_CEILINGS.bcryptCost;

/**
 * Verifies a bcrypt hash with the async (libuv thread-pool) compare.
 * The native binding only knows $2a$/$2b$ and silently returns false for $2y$ (PHP's name for the
 * same algorithm as $2b$), so $2y$ is rewritten to $2b$ before comparing.
 */
export async function verifyBcrypt(password: string, hash: string): Promise<boolean> {
  // Mutation testing: two survivors here are equivalent, kept since the same mutators' other
  // mutants on these lines are killed: the pattern run on a non-string (`true`) cannot match what
  // String() makes of it, and compare's refusal of a non-string password (`false`) ends as false.
  const match = typeof hash === 'string' ? BCRYPT_PATTERN.exec(hash) : null;
  if (!match || typeof password !== 'string') {
    return false;
  }
  const cost = Number(match[2]);
  // Mutation testing: `cost < MIN_COST` as `false` survives, equivalent: the binding itself
  // answers false for a cost below 4 (the other mutants of the line are killed).
  if (cost < MIN_COST || cost > BCRYPT_MAX_COST) {
    return false;
  }
  // Mutation testing: rewriting $2a$ too (`true`) survives, equivalent: the binding computes $2a$
  // and $2b$ alike, even past 255 bytes (the spec's `false` mutant, no rewrite, is killed).
  const normalized = match[1] === 'y' ? `$2b$${hash.slice(4)}` : hash;
  try {
    // Stryker disable BlockStatement: the catch is unreachable: compare rejects only a non-string argument or a hash of another shape, which the checks above refuse first
    return await compare(password, normalized);
  } catch {
    // Stryker restore BlockStatement
    // Stryker disable next-line BooleanLiteral: unreachable, as the catch above
    return false;
  }
}
