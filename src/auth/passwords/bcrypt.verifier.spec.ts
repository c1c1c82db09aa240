import { compare, hash as bcryptHash } from 'bcrypt';
import { verifyBcrypt } from './bcrypt.verifier';

const PASSWORD = 'correct horse battery staple';
const WRONG = 'Correct horse battery staple';
/** PASSWORD hashed at the ceiling's cost (15) and one above it, made once (seconds each). */
const HASH_COST_15 = '$2b$15$ZGPg7Pf6EnoeGBLL/v73OOZ4T7kKu8trREWSzXZMfnQAdmHslTtVS';
const HASH_COST_16 = '$2b$16$qqpqkKffCjsYFFUlDOv89eupCCsKAwoLN.d4wyZYSocY2OzCabJTG';

describe(verifyBcrypt.name, () => {
  let hash2b: string;

  beforeAll(async () => {
    hash2b = await bcryptHash(PASSWORD, 4);
  });

  const withPrefix = (prefix: string): string => `${prefix}${hash2b.slice(4)}`;

  it.each(['$2a$', '$2b$', '$2y$'])('should accept the correct password for %s', async (prefix) => {
    await expect(verifyBcrypt(PASSWORD, withPrefix(prefix))).resolves.toBe(true);
  });

  it.each(['$2a$', '$2b$', '$2y$'])('should reject a wrong password for %s', async (prefix) => {
    await expect(verifyBcrypt(WRONG, withPrefix(prefix))).resolves.toBe(false);
  });

  it('should need the $2y$ rewrite because the native binding rejects that prefix', async () => {
    await expect(compare(PASSWORD, withPrefix('$2y$'))).resolves.toBe(false);
  });

  it('should handle non-ASCII passwords', async () => {
    const hash = await bcryptHash('pässwörd-🔑', 4);

    await expect(verifyBcrypt('pässwörd-🔑', hash)).resolves.toBe(true);
    await expect(verifyBcrypt('passwort-🔑', hash)).resolves.toBe(false);
  });

  it.each([
    ['empty string', () => ''],
    ['truncated hash', () => hash2b.slice(0, 40)],
    ['trailing garbage', () => `${hash2b}x`],
    ['unsupported $2x$ prefix', () => withPrefix('$2x$')],
    ['cost below 4', () => hash2b.replace('$04$', '$03$')],
    ['absurd cost 31', () => hash2b.replace('$04$', '$31$')],
    ['invalid characters', () => hash2b.slice(0, -1) + '!'],
  ])('should return false without throwing for %s', async (_label, makeHash) => {
    await expect(verifyBcrypt(PASSWORD, makeHash())).resolves.toBe(false);
  });

  it('should return false for non-string input', async () => {
    await expect(verifyBcrypt(PASSWORD, undefined as unknown as string)).resolves.toBe(false);
    await expect(verifyBcrypt(undefined as unknown as string, hash2b)).resolves.toBe(false);
  });

  it('should refuse the correct password of a hash above the cost ceiling, without hashing', async () => {
    const started = Date.now();
    await expect(verifyBcrypt(PASSWORD, HASH_COST_16)).resolves.toBe(false);
    // Checking it would take seconds (bcrypt 16 is 4,096 times bcrypt 4).
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('should accept the correct password of a hash at the cost ceiling', async () => {
    await expect(verifyBcrypt(PASSWORD, HASH_COST_15)).resolves.toBe(true);
  }, 30_000);
});
