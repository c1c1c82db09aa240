import { verify } from 'argon2';
import { hashPassword } from './password-hasher';

describe(hashPassword.name, () => {
  it('should produce an argon2id PHC string with the OWASP baseline cost', async () => {
    const hash = await hashPassword('s3cret!');

    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
  });

  it('should produce a hash that verifies only the original password', async () => {
    const hash = await hashPassword('s3cret!');

    await expect(verify(hash, 's3cret!')).resolves.toBe(true);
    await expect(verify(hash, 's3cret?')).resolves.toBe(false);
  });

  it('should salt every hash', async () => {
    const [first, second] = await Promise.all([hashPassword('same'), hashPassword('same')]);

    expect(first).not.toBe(second);
  });

  it('should reject non-string input', async () => {
    await expect(hashPassword(undefined as unknown as string)).rejects.toThrow(TypeError);
  });
});
