import { verify } from 'argon2';
import { HASH_COST_CEILINGS } from './hash-cost-ceilings';

/** $argon2id$v=19$<params>$<salt>$<hash>; node-argon2 writes params as m,p,t, others as m,t,p. */
const ARGON2ID_PATTERN =
  /^\$argon2id\$v=19\$([a-z0-9=,]{1,64})\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{6,}$/;

/** Ceilings against corrupt or hostile rows (HASH_COST_CEILINGS: 256 MiB, 10 passes, 16 lanes). */
const MAX_PARAMS = {
  m: HASH_COST_CEILINGS.argon2MemoryKiB,
  t: HASH_COST_CEILINGS.argon2Passes,
  p: HASH_COST_CEILINGS.argon2Lanes,
} as const;
type ParamName = keyof typeof MAX_PARAMS;

function hasSaneParams(params: string): boolean {
  const seen = new Set<string>();
  for (const pair of params.split(',')) {
    const match = /^([mtp])=([1-9]\d{0,9})$/.exec(pair);
    if (!match || seen.has(match[1])) {
      return false;
    }
    seen.add(match[1]);
    if (Number(match[2]) > MAX_PARAMS[match[1] as ParamName]) {
      return false;
    }
  }
  return seen.size === 3;
}

/** Verifies an argon2id PHC string with node-argon2's async (thread-pool) verify. */
export async function verifyArgon2id(password: string, hash: string): Promise<boolean> {
  if (typeof password !== 'string' || typeof hash !== 'string') {
    return false;
  }
  const match = ARGON2ID_PATTERN.exec(hash);
  if (!match || !hasSaneParams(match[1])) {
    return false;
  }
  try {
    return await verify(hash, password);
  } catch {
    return false;
  }
}
