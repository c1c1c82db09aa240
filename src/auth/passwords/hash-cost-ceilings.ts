import type { PasswordHashFormat } from './password-hash-format';
import { decodeStrictBase64 } from './strict-base64';

/**
 * The most a stored hash may ask of one verification. A row above them (corrupt, or written to
 * stall the service) is never run: it is treated as an unsupported format. Each is far above what
 * a real back-office writes (argon2id OWASP 19 MiB / 2 passes, bcrypt 10-12, Identity v3 at most
 * 600,000 PBKDF2 iterations), and bounds one verification to a few seconds of one core (bcrypt 15
 * is 32 times bcrypt 10). See docs/auth.md.
 */
export const HASH_COST_CEILINGS = {
  /** argon2 m, in KiB: 256 MiB. */
  argon2MemoryKiB: 256 * 1024,
  /** argon2 t. */
  argon2Passes: 10,
  /** argon2 p. */
  argon2Lanes: 16,
  /** bcrypt log2 rounds. */
  bcryptCost: 15,
  /** PBKDF2 iterations (ASP.NET Core Identity v3). */
  pbkdf2Iterations: 2_000_000,
} as const;

const ARGON2_PARAMS = /^\$argon2id\$v=19\$([^$]*)\$/;
const BCRYPT_COST = /^\$2[aby]\$(\d{2})\$/;

function argon2WithinCeilings(hash: string): boolean {
  const params = ARGON2_PARAMS.exec(hash)?.[1];
  if (params === undefined) return true; // malformed: the verifier refuses it without hashing
  const limits: Record<string, number> = {
    m: HASH_COST_CEILINGS.argon2MemoryKiB,
    t: HASH_COST_CEILINGS.argon2Passes,
    p: HASH_COST_CEILINGS.argon2Lanes,
  };
  return params.split(',').every((pair) => {
    const [name, value] = pair.split('=');
    // Stryker disable next-line StringLiteral: equivalent: for a pair without '=', any text that is not digits leaves it to the verifier, as '' does
    return !(name in limits) || !/^\d{1,12}$/.test(value ?? '') || Number(value) <= limits[name];
  });
}

/** Whether verifying this hash stays under HASH_COST_CEILINGS (malformed hashes count as under). */
export function withinCostCeilings(format: PasswordHashFormat, hash: string): boolean {
  switch (format) {
    case 'argon2id':
      return argon2WithinCeilings(hash);
    case 'bcrypt': {
      const cost = BCRYPT_COST.exec(hash)?.[1];
      return cost === undefined || Number(cost) <= HASH_COST_CEILINGS.bcryptCost;
    }
    case 'aspnet-v3': {
      const bytes = decodeStrictBase64(hash);
      return (
        !bytes || bytes.length < 9 || bytes.readUInt32BE(5) <= HASH_COST_CEILINGS.pbkdf2Iterations
      );
    }
    default:
      return true;
  }
}
