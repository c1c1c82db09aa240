import { argon2id, hash } from 'argon2';

/** OWASP Password Storage Cheat Sheet argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const ARGON2ID_OPTIONS = {
  type: argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Hashes a password as an argon2id PHC string on libuv's thread pool.
 * For the demo seed and admin tooling; the API itself never rehashes.
 */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== 'string') {
    throw new TypeError('password must be a string');
  }
  return hash(password, ARGON2ID_OPTIONS);
}
