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
  const match = typeof hash === 'string' ? BCRYPT_PATTERN.exec(hash) : null;
  if (!match || typeof password !== 'string') {
    return false;
  }
  const cost = Number(match[2]);
  if (cost < MIN_COST || cost > BCRYPT_MAX_COST) {
    return false;
  }
  const normalized = match[1] === 'y' ? `$2b$${hash.slice(4)}` : hash;
  try {
    return await compare(password, normalized);
  } catch {
    return false;
  }
}
