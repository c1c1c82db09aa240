import { Logger } from '@nestjs/common';
import { hash as argon2Hash } from 'argon2';
import { hash as bcryptHash } from 'bcrypt';
import { hashPassword } from '../../common/passwords/password-hasher';
import { PasswordVerifier } from './password-verifier.service';
import { encodeAspNetV3, makeAspNetV2Hash, makeAspNetV3Hash } from './testing/aspnet-hash.fixture';

jest.mock('../../common/passwords/password-hasher', () => {
  const actual = jest.requireActual<typeof import('../../common/passwords/password-hasher')>(
    '../../common/passwords/password-hasher',
  );
  return { hashPassword: jest.fn(actual.hashPassword) };
});

const PASSWORD = 'correct horse battery staple';
const WRONG = 'tr0ub4dor&3';
const UNKNOWN_HASH =
  '$pbkdf2-sha256$29000$N2bMWe.1tq3xPxsD$MkZ3Vhj6oDCVtDIZq1J.Wc3cvMdLqvyLWeYsYSe2Sjc';

/** Counts timer turns the event loop completes while `work` is pending (0 if it blocked). */
async function timerTurnsDuring(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = (): void => {
    if (!done) {
      turns += 1;
      setTimeout(tick, 0);
    }
  };
  setTimeout(tick, 0);
  await work;
  done = true;
  return turns;
}

describe(PasswordVerifier.name, () => {
  let verifier: PasswordVerifier;
  let warn: jest.SpyInstance;
  const hashes: Record<string, string> = {};

  beforeAll(async () => {
    const bcrypt = await bcryptHash(PASSWORD, 4);
    hashes.bcrypt2a = `$2a$${bcrypt.slice(4)}`;
    hashes.bcrypt2b = bcrypt;
    hashes.bcrypt2y = `$2y$${bcrypt.slice(4)}`;
    hashes.argon2id = await argon2Hash(PASSWORD, { memoryCost: 1024, timeCost: 1, parallelism: 1 });
    hashes.aspnetV3Sha1 = makeAspNetV3Hash(PASSWORD, { prf: 0, iterations: 1000 });
    hashes.aspnetV3Sha256 = makeAspNetV3Hash(PASSWORD, { prf: 1, iterations: 10_000 });
    hashes.aspnetV3Sha512 = makeAspNetV3Hash(PASSWORD, { prf: 2, iterations: 100_000 });
    hashes.aspnetV2 = makeAspNetV2Hash(PASSWORD);
  });

  beforeEach(() => {
    verifier = new PasswordVerifier();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  const formats = [
    'bcrypt2a',
    'bcrypt2b',
    'bcrypt2y',
    'argon2id',
    'aspnetV3Sha1',
    'aspnetV3Sha256',
    'aspnetV3Sha512',
    'aspnetV2',
  ];

  it.each(formats)('should accept the correct password for %s', async (format) => {
    await expect(verifier.verify(PASSWORD, hashes[format], 'user-1')).resolves.toBe(true);
  });

  it.each(formats)('should reject a wrong password for %s', async (format) => {
    await expect(verifier.verify(WRONG, hashes[format], 'user-1')).resolves.toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });

  it.each<[string, () => string]>([
    ['truncated bcrypt', () => hashes.bcrypt2b.slice(0, 30)],
    ['truncated argon2id', () => hashes.argon2id.slice(0, 40)],
    ['truncated ASP.NET v3', () => hashes.aspnetV3Sha256.slice(0, 24)],
    ['garbage', () => '\u0000\uffff<script>'],
    ['empty string', () => ''],
    ['null from the database', () => null as unknown as string],
  ])('should return false without throwing for %s', async (_label, makeHash) => {
    await expect(verifier.verify(PASSWORD, makeHash(), 'user-1')).resolves.toBe(false);
  });

  it('should log an unknown format once per subject without the hash or password', async () => {
    await expect(verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-7')).resolves.toBe(false);
    await expect(verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-7')).resolves.toBe(false);

    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0][0]);
    expect(message).toContain('user-7');
    expect(message).toContain('pbkdf2-sha256');
    expect(message).not.toContain(UNKNOWN_HASH);
    expect(message).not.toContain(UNKNOWN_HASH.slice(20, 40));
    expect(message).not.toContain(PASSWORD);
  });

  it('should log once per user id, whatever its unsupported hashes, and again for another user', async () => {
    await verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-7');
    await verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-8');
    await verifier.verify(PASSWORD, 'plain-text-password', 'user-8');
    await verifier.verify(PASSWORD, 'plain-text-password', 'user-9');

    expect(warn).toHaveBeenCalledTimes(3);
    expect(String(warn.mock.calls[2][0])).not.toContain('plain-text-password');
  });

  it.each<[string, () => string]>([
    ['argon2id above 256 MiB', () => hashes.argon2id.replace('m=1024', 'm=262145')],
    ['argon2id above 10 passes', () => hashes.argon2id.replace('t=1', 't=11')],
    ['bcrypt above cost 15', () => hashes.bcrypt2b.replace('$04$', '$16$')],
    [
      'PBKDF2 above 2,000,000 iterations',
      () =>
        encodeAspNetV3({
          prf: 1,
          iterations: 2_000_001,
          salt: Buffer.alloc(16, 1),
          subkey: Buffer.alloc(32, 2),
        }),
    ],
  ])(
    'should refuse a stored %s with the dummy verification instead, warning once per user id without the hash',
    async (_label, makeHash) => {
      const hash = makeHash();
      const dummy = jest.spyOn(verifier, 'verifyDummy');
      await expect(verifier.verify(PASSWORD, hash, 'user-42')).resolves.toBe(false);
      await expect(verifier.verify(PASSWORD, hash, 'user-42')).resolves.toBe(false);
      expect(dummy).toHaveBeenCalledTimes(2);
      expect(warn).toHaveBeenCalledTimes(1);
      const message = String(warn.mock.calls[0][0]);
      expect(message).toContain('user-42');
      expect(message).toContain('above the cost ceilings');
      expect(message).not.toContain(hash.slice(-20));
    },
  );

  it('should resolve false from verifyDummy and compute the dummy hash only once', async () => {
    const hashSpy = jest.mocked(hashPassword);
    hashSpy.mockClear();

    await expect(verifier.verifyDummy(PASSWORD)).resolves.toBe(false);
    await expect(verifier.verifyDummy('')).resolves.toBe(false);

    expect(hashSpy).toHaveBeenCalledTimes(1);
  });

  it('should resolve false from verifyDummy even if the dummy hash cannot be computed', async () => {
    jest.mocked(hashPassword).mockRejectedValueOnce(new Error('out of memory'));

    await expect(verifier.verifyDummy(PASSWORD)).resolves.toBe(false);
    await expect(verifier.verifyDummy(PASSWORD)).resolves.toBe(false);
  });

  it('should keep the event loop turning while verifying expensive hashes', async () => {
    const [argon2Expensive, bcryptExpensive] = await Promise.all([
      argon2Hash(PASSWORD, { memoryCost: 65_536, timeCost: 3, parallelism: 1 }),
      bcryptHash(PASSWORD, 10),
    ]);
    const aspnetExpensive = makeAspNetV3Hash(PASSWORD, { prf: 1, iterations: 200_000 });

    for (const hash of [argon2Expensive, bcryptExpensive, aspnetExpensive]) {
      const verification = verifier.verify(PASSWORD, hash, 'user-1');
      expect(await timerTurnsDuring(verification)).toBeGreaterThan(1);
      await expect(verification).resolves.toBe(true);
    }
  });

  it('should compute the dummy hash at start-up, once', async () => {
    const hashSpy = jest.mocked(hashPassword);
    hashSpy.mockClear();
    await verifier.onApplicationBootstrap();
    expect(hashSpy).toHaveBeenCalledTimes(1);
    await expect(verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-1')).resolves.toBe(false);
    expect(hashSpy).toHaveBeenCalledTimes(1);
  });

  it('should compute the dummy hash again after a failure, not keep the failure', async () => {
    const hashSpy = jest.mocked(hashPassword);
    hashSpy.mockClear();
    hashSpy.mockRejectedValueOnce(new Error('out of memory'));
    await expect(verifier.verifyDummy(PASSWORD)).resolves.toBe(false);
    await expect(verifier.verifyDummy(PASSWORD)).resolves.toBe(false);
    expect(hashSpy).toHaveBeenCalledTimes(2);
  });

  it('should spend a real verification on the dummy whatever the password, a non-string too', async () => {
    await verifier.onApplicationBootstrap();
    for (const password of [PASSWORD, undefined as unknown as string]) {
      const dummy = verifier.verifyDummy(password);
      expect(await timerTurnsDuring(dummy)).toBeGreaterThan(0);
      await expect(dummy).resolves.toBe(false);
    }
  });

  it.each<[string, string, string]>([
    ['an empty hash', '', '(empty)'],
    ['a scheme with too little after it to name', '$foo$0123456789abcde', '(unrecognised)'],
    ['a scheme with enough after it', '$foo$0123456789abcdef', '(scheme "foo")'],
  ])('should describe %s without echoing it', async (_label, hash, description) => {
    await expect(verifier.verify(PASSWORD, hash, 'user-1')).resolves.toBe(false);
    expect(String(warn.mock.calls[0][0])).toContain(description);
  });

  it('should log once per description when the subject is unknown, naming no subject', async () => {
    await verifier.verify(PASSWORD, UNKNOWN_HASH);
    await verifier.verify(PASSWORD, UNKNOWN_HASH);
    await verifier.verify(PASSWORD, '');
    expect(warn).toHaveBeenCalledTimes(2);
    const message = String(warn.mock.calls[0][0]);
    expect(message).toContain('for an unidentified subject');
    expect(message).toContain('Further occurrences for this subject are not logged.');
  });

  it('should forget whom it warned after 10,000 subjects, so its memory stays bounded', async () => {
    // The dummy verification's cost is not what this is about.
    jest.spyOn(verifier, 'verifyDummy').mockResolvedValue(false);
    for (let i = 0; i < 10_000; i++) await verifier.verify(PASSWORD, UNKNOWN_HASH, `user-${i}`);
    expect(warn).toHaveBeenCalledTimes(10_000);
    await verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-0');
    expect(warn).toHaveBeenCalledTimes(10_000);
    await verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-10000');
    expect(warn).toHaveBeenCalledTimes(10_001);
    await verifier.verify(PASSWORD, UNKNOWN_HASH, 'user-0');
    expect(warn).toHaveBeenCalledTimes(10_002);
  });
});
