import { hash as argon2Hash } from 'argon2';
import { hash as bcryptHash } from 'bcrypt';
import { detectPasswordHashFormat } from './password-hash-format';
import { encodeAspNetV3, makeAspNetV2Hash, makeAspNetV3Hash } from './testing/aspnet-hash.fixture';

describe(detectPasswordHashFormat.name, () => {
  it('should detect bcrypt for $2a$, $2b$ and $2y$ prefixes', async () => {
    const hash = await bcryptHash('secret', 4);

    expect(detectPasswordHashFormat(hash)).toBe('bcrypt');
    expect(detectPasswordHashFormat(`$2a$${hash.slice(4)}`)).toBe('bcrypt');
    expect(detectPasswordHashFormat(`$2y$${hash.slice(4)}`)).toBe('bcrypt');
  });

  it('should detect argon2id PHC strings', async () => {
    const hash = await argon2Hash('secret', { memoryCost: 1024, timeCost: 1, parallelism: 1 });

    expect(detectPasswordHashFormat(hash)).toBe('argon2id');
  });

  it('should detect ASP.NET Identity v3 and v2 payloads', () => {
    expect(detectPasswordHashFormat(makeAspNetV3Hash('secret', { iterations: 1000 }))).toBe(
      'aspnet-v3',
    );
    expect(detectPasswordHashFormat(makeAspNetV2Hash('secret'))).toBe('aspnet-v2');
  });

  it('should still classify a v3 header with inconsistent fields as aspnet-v3', () => {
    const hash = encodeAspNetV3({
      prf: 9,
      iterations: 0,
      salt: Buffer.alloc(0),
      subkey: Buffer.alloc(0),
    });

    expect(detectPasswordHashFormat(hash)).toBe('aspnet-v3');
  });

  it.each([
    ['empty string', ''],
    ['plain text', 'hunter2'],
    ['argon2i', '$argon2i$v=19$m=4096,t=3,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNo'],
    ['md5 crypt', '$1$saltsalt$qjXMvbEw8oaL.CzflDugX/'],
    ['$2x$ bcrypt variant', '$2x$10$abcdefghijklmnopqrstuu'],
    ['hex sha1', '5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8'],
    ['non-canonical base64', 'AQ=='.replace('Q', 'R')],
    ['base64 with whitespace', ' AAAA'],
    ['truncated v2', makeAspNetV2Hash('secret').slice(0, 40)],
    ['v3 shorter than its header', Buffer.from([1, 0, 0, 0, 1]).toString('base64')],
    ['wrong marker byte', Buffer.alloc(49, 2).toString('base64')],
  ])('should return unknown for %s', (_label, hash) => {
    expect(detectPasswordHashFormat(hash)).toBe('unknown');
  });

  it('should return unknown instead of throwing for non-string input', () => {
    expect(detectPasswordHashFormat(null as unknown as string)).toBe('unknown');
    expect(detectPasswordHashFormat(42 as unknown as string)).toBe('unknown');
  });
});
