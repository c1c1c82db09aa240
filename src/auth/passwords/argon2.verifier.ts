import { verify } from 'argon2';

/** $argon2id$v=19$<params>$<salt>$<hash>; node-argon2 writes params as m,p,t, others as m,t,p. */
const ARGON2ID_PATTERN =
  /^\$argon2id\$v=19\$([a-z0-9=,]{1,64})\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{6,}$/;

/** Sanity ceilings against corrupt or hostile rows (1 GiB of memory, 32 passes, 16 lanes). */
const MAX_PARAMS = { m: 1024 * 1024, t: 32, p: 16 } as const;
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
