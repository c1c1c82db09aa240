import { randomBytes } from 'node:crypto';
import {
  ASPNET_V3_MAX_ITERATIONS,
  verifyAspNetIdentityV2,
  verifyAspNetIdentityV3,
} from './aspnet-identity.verifier';
import {
  AspNetPrf,
  AspNetV3Fields,
  encodeAspNetV3,
  makeAspNetV2Hash,
  makeAspNetV3Hash,
} from './testing/aspnet-hash.fixture';

const PASSWORD = 'correct horse battery staple';
const WRONG = 'correct horse battery staplE';

describe(verifyAspNetIdentityV3.name, () => {
  const cases: [AspNetPrf, number][] = [0, 1, 2].flatMap((prf) =>
    [1000, 10_000, 100_000].map((iterations): [AspNetPrf, number] => [
      prf as AspNetPrf,
      iterations,
    ]),
  );

  it.each(cases)('should verify PRF %i with %i iterations', async (prf, iterations) => {
    const hash = makeAspNetV3Hash(PASSWORD, { prf, iterations });

    await expect(verifyAspNetIdentityV3(PASSWORD, hash)).resolves.toBe(true);
    await expect(verifyAspNetIdentityV3(WRONG, hash)).resolves.toBe(false);
  });

  it('should match the RFC 6070 PBKDF2-HMAC-SHA1 known-answer vector', async () => {
    const hash = encodeAspNetV3({
      prf: 0,
      iterations: 4096,
      salt: Buffer.from('saltSALTsaltSALTsaltSALTsaltSALTsalt'),
      subkey: Buffer.from('3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038', 'hex'),
    });

    await expect(verifyAspNetIdentityV3('passwordPASSWORDpassword', hash)).resolves.toBe(true);
  });

  it('should hash the password as UTF-8', async () => {
    const hash = makeAspNetV3Hash('pässwörd-🔑', { iterations: 1000 });

    await expect(verifyAspNetIdentityV3('pässwörd-🔑', hash)).resolves.toBe(true);
  });

  const valid = (): AspNetV3Fields => ({
    prf: 1,
    iterations: 1000,
    salt: randomBytes(16),
    subkey: randomBytes(32),
  });

  it.each<[string, () => string]>([
    ['empty string', () => ''],
    ['invalid base64', () => '!!not-base64!!'],
    ['base64 with embedded garbage', () => `${makeAspNetV3Hash(PASSWORD).slice(0, 20)}*`],
    ['a v2 hash', () => makeAspNetV2Hash(PASSWORD)],
    ['truncated header', () => Buffer.from([1, 0, 0, 0, 1, 0, 0]).toString('base64')],
    ['truncated subkey', () => encodeAspNetV3({ ...valid(), subkey: randomBytes(8) })],
    ['empty subkey', () => encodeAspNetV3({ ...valid(), subkey: Buffer.alloc(0) })],
    ['oversized subkey', () => encodeAspNetV3({ ...valid(), subkey: randomBytes(65) })],
    ['short salt', () => encodeAspNetV3({ ...valid(), salt: randomBytes(8) })],
    ['salt length beyond the buffer', () => encodeAspNetV3({ ...valid(), saltLength: 0xffffffff })],
    ['salt length eating the subkey', () => encodeAspNetV3({ ...valid(), saltLength: 40 })],
    ['unknown PRF', () => encodeAspNetV3({ ...valid(), prf: 3 })],
    ['huge PRF', () => encodeAspNetV3({ ...valid(), prf: 0xffffffff })],
    ['zero iterations', () => encodeAspNetV3({ ...valid(), iterations: 0 })],
    [
      'iterations above the cap',
      () => encodeAspNetV3({ ...valid(), iterations: ASPNET_V3_MAX_ITERATIONS + 1 }),
    ],
    ['iterations as negative int32', () => encodeAspNetV3({ ...valid(), iterations: 0xffffffff })],
    ['wrong marker', () => encodeAspNetV3({ ...valid(), marker: 0x02 })],
  ])('should return false without throwing for %s', async (_label, makeHash) => {
    await expect(verifyAspNetIdentityV3(PASSWORD, makeHash())).resolves.toBe(false);
  });

  it('should return false for non-string input', async () => {
    const hash = makeAspNetV3Hash(PASSWORD, { iterations: 1000 });

    await expect(verifyAspNetIdentityV3(PASSWORD, null as unknown as string)).resolves.toBe(false);
    await expect(verifyAspNetIdentityV3(null as unknown as string, hash)).resolves.toBe(false);
  });
});

describe(verifyAspNetIdentityV2.name, () => {
  it('should accept the correct password and reject a wrong one', async () => {
    const hash = makeAspNetV2Hash(PASSWORD);

    await expect(verifyAspNetIdentityV2(PASSWORD, hash)).resolves.toBe(true);
    await expect(verifyAspNetIdentityV2(WRONG, hash)).resolves.toBe(false);
  });

  it.each<[string, () => string]>([
    ['empty string', () => ''],
    ['invalid base64', () => 'AAAA$AAA'],
    ['a v3 hash', () => makeAspNetV3Hash(PASSWORD, { iterations: 1000 })],
    [
      'truncated payload',
      () => Buffer.from(makeAspNetV2Hash(PASSWORD), 'base64').subarray(0, 40).toString('base64'),
    ],
    [
      'extra trailing byte',
      () =>
        Buffer.concat([
          Buffer.from(makeAspNetV2Hash(PASSWORD), 'base64'),
          Buffer.from([0]),
        ]).toString('base64'),
    ],
    ['wrong marker', () => Buffer.alloc(49, 1).toString('base64')],
  ])('should return false without throwing for %s', async (_label, makeHash) => {
    await expect(verifyAspNetIdentityV2(PASSWORD, makeHash())).resolves.toBe(false);
  });
});
