import { argon2i, argon2id, hash as argon2Hash } from 'argon2';
import { verifyArgon2id } from './argon2.verifier';

const PASSWORD = 'correct horse battery staple';
const WRONG = 'correct horse battery stapler';
const CHEAP = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/** Replaces one '$'-separated field: 1 = id, 2 = version, 3 = params, 4 = salt, 5 = digest. */
function replacePart(phc: string, index: number, value: string): string {
  const parts = phc.split('$');
  parts[index] = value;
  return parts.join('$');
}

describe(verifyArgon2id.name, () => {
  let hash: string;

  beforeAll(async () => {
    hash = await argon2Hash(PASSWORD, { ...CHEAP, type: argon2id });
  });

  it('should accept the correct password', async () => {
    await expect(verifyArgon2id(PASSWORD, hash)).resolves.toBe(true);
  });

  it('should reject a wrong password', async () => {
    await expect(verifyArgon2id(WRONG, hash)).resolves.toBe(false);
  });

  it('should accept parameters in m,t,p order as written by other libraries', async () => {
    const reordered = hash.replace('m=1024,p=1,t=1', 'm=1024,t=1,p=1');

    expect(reordered).toContain('$m=1024,t=1,p=1$');
    await expect(verifyArgon2id(PASSWORD, reordered)).resolves.toBe(true);
  });

  it('should reject argon2i even though the library could verify it', async () => {
    const argon2iHash = await argon2Hash(PASSWORD, { ...CHEAP, type: argon2i });

    await expect(verifyArgon2id(PASSWORD, argon2iHash)).resolves.toBe(false);
  });

  it.each([
    ['empty string', () => ''],
    ['bare prefix', () => '$argon2id$'],
    ['truncated hash', () => hash.slice(0, hash.length - 20)],
    ['missing digest', () => hash.slice(0, hash.lastIndexOf('$'))],
    ['version 16', () => hash.replace('v=19', 'v=16')],
    ['absurd memory cost', () => hash.replace('m=1024', 'm=4294967295')],
    ['absurd time cost', () => hash.replace('t=1', 't=1000000')],
    ['duplicated parameter', () => hash.replace('p=1', 'm=1')],
    ['extra parameter', () => hash.replace('t=1', 't=1,data=AAAA')],
    ['zero parallelism', () => hash.replace('p=1', 'p=0')],
    ['invalid base64 salt', () => replacePart(hash, 4, '!!!!!!!!!!!!')],
    ['digest too short for argon2', () => replacePart(hash, 5, 'AAAAAA')],
    // Within the ceilings, below argon2's own floor (8 KiB per lane): argon2 throws, it answers false.
    ['memory cost below what argon2 accepts', () => hash.replace('m=1024', 'm=7')],
  ])('should return false without throwing for %s', async (_label, makeHash) => {
    await expect(verifyArgon2id(PASSWORD, makeHash())).resolves.toBe(false);
  });

  it('should return false for non-string input', async () => {
    await expect(verifyArgon2id(PASSWORD, null as unknown as string)).resolves.toBe(false);
    await expect(verifyArgon2id(null as unknown as string, hash)).resolves.toBe(false);
  });
});
