import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../config/load-config';
import { CursorSecret } from '../../common/cursor-secret';
import { cursorSecretOf, DEV_KEY_FILE, loadSigningKeys } from './signing-keys';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'keys-'));
const ecPem = (curve = 'P-256') =>
  generateKeyPairSync('ec', { namedCurve: curve })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();

describe(loadSigningKeys.name, () => {
  it('should generate a development key once, keep it in DATA_DIR (mode 600) and reuse it after a restart', () => {
    const dir = tempDir();
    const first = loadSigningKeys(loadConfig({ APP_ENV: 'development', DATA_DIR: dir }));
    const file = path.join(dir, DEV_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadSigningKeys(loadConfig({ APP_ENV: 'development', DATA_DIR: dir }));
    expect(again.keyId).toBe(first.keyId);
    expect(readFileSync(file, 'utf8')).toContain('BEGIN PRIVATE KEY');
  });

  it('should generate one in preproduction too', () => {
    expect(
      loadSigningKeys(loadConfig({ DATA_DIR: tempDir(), APP_ENV: 'preproduction' })).algorithm,
    ).toBe('ES256');
  });

  it('should use the configured key and key id, and accept \\n-escaped PEM text', () => {
    const pem = ecPem().replace(/\n/g, '\\n');
    const keys = loadSigningKeys(
      loadConfig({
        APP_ENV: 'development',
        DATA_DIR: tempDir(),
        JWT_PRIVATE_KEY: pem,
        JWT_KEY_ID: 'k-2026',
      }),
    );
    expect(keys.keyId).toBe('k-2026');
    expect(keys.verificationKey('k-2026')).toBeDefined();
  });

  it('should refuse a key that is not an EC P-256 private key for ES256', () => {
    expect(() =>
      loadSigningKeys(
        loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir(), JWT_PRIVATE_KEY: 'not a key' }),
      ),
    ).toThrow(/not a PEM private key/);
    expect(() =>
      loadSigningKeys(
        loadConfig({
          APP_ENV: 'development',
          DATA_DIR: tempDir(),
          JWT_PRIVATE_KEY: ecPem('P-384'),
        }),
      ),
    ).toThrow(/P-256/);
  });

  it('should refuse a short HS256 secret', () => {
    expect(() =>
      loadSigningKeys(
        loadConfig({
          APP_ENV: 'development',
          DATA_DIR: tempDir(),
          JWT_ALGORITHM: 'HS256',
          JWT_PRIVATE_KEY: 'short',
        }),
      ),
    ).toThrow(/at least 32/);
  });

  it('should keep retired public keys for verification only', () => {
    const retired = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    const keys = loadSigningKeys(
      loadConfig({
        APP_ENV: 'development',
        DATA_DIR: tempDir(),
        JWT_PRIVATE_KEY: ecPem(),
        JWT_PREVIOUS_PUBLIC_KEYS: JSON.stringify({ old: retired }),
      }),
    );
    expect(keys.keyIds).toContain('old');
    expect(keys.keyId).not.toBe('old');
  });

  it('should read the key from JWT_PRIVATE_KEY_FILE, with a clear message when it cannot', () => {
    expect(() =>
      loadSigningKeys(
        loadConfig({
          APP_ENV: 'development',
          DATA_DIR: tempDir(),
          JWT_PRIVATE_KEY_FILE: '/nonexistent/key.pem',
        }),
      ),
    ).toThrow(/^JWT_PRIVATE_KEY_FILE: cannot read \/nonexistent\/key\.pem: no such file$/);
  });

  it('should derive the cursor secret from the signing key when CURSOR_SECRET is unset', () => {
    const dir = tempDir();
    const config = loadConfig({ APP_ENV: 'development', DATA_DIR: dir });
    const derived = cursorSecretOf(config, loadSigningKeys(config)).key;
    // The same key after a restart gives the same secret, so cursors outlive a restart.
    expect(cursorSecretOf(config, loadSigningKeys(config)).key.equals(derived)).toBe(true);
    const other = loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir() });
    expect(cursorSecretOf(other, loadSigningKeys(other)).key.equals(derived)).toBe(false);
    const configured = loadConfig({
      APP_ENV: 'development',
      DATA_DIR: dir,
      CURSOR_SECRET: 'a-cursor-secret-of-32-characters-at-least',
    });
    expect(cursorSecretOf(configured, loadSigningKeys(configured)).key.toString()).toBe(
      'a-cursor-secret-of-32-characters-at-least',
    );
  });

  it('should name a key by its public key: the same key the same 16-character kid, another key another', () => {
    const pem = ecPem();
    const config = () =>
      loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir(), JWT_PRIVATE_KEY: pem });
    const keys = loadSigningKeys(config());
    expect(keys.keyId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(loadSigningKeys(config()).keyId).toBe(keys.keyId);
    const other = loadSigningKeys(
      loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir(), JWT_PRIVATE_KEY: ecPem() }),
    );
    expect(other.keyId).not.toBe(keys.keyId);
    // Only the public half is handed out for verification.
    expect((keys.verificationKey(keys.keyId) as KeyObject).type).toBe('public');
    expect(keys.keyIds).toEqual([keys.keyId]);
  });

  it('should say which setting holds a bad key', () => {
    expect(() =>
      loadSigningKeys(
        loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir(), JWT_PRIVATE_KEY: 'not a key' }),
      ),
    ).toThrow(/^JWT_PRIVATE_KEY: not a PEM private key$/);
    const dir = tempDir();
    const file = path.join(dir, 'bad.pem');
    writeFileSync(file, 'not a key either');
    expect(() =>
      loadSigningKeys(
        loadConfig({ APP_ENV: 'development', DATA_DIR: dir, JWT_PRIVATE_KEY_FILE: file }),
      ),
    ).toThrow(/^JWT_PRIVATE_KEY_FILE: not a PEM private key$/);
    // A broken development key names its file.
    const devDir = tempDir();
    writeFileSync(path.join(devDir, DEV_KEY_FILE), 'garbage');
    expect(() => loadSigningKeys(loadConfig({ APP_ENV: 'development', DATA_DIR: devDir }))).toThrow(
      `${devDir}/${DEV_KEY_FILE}: not a PEM private key`,
    );
  });

  it('should refuse to start in production without a configured key', () => {
    const dir = tempDir();
    const config = loadConfig({ APP_ENV: 'development', DATA_DIR: dir });
    Object.assign(config, { APP_ENV: 'production' });
    expect(() => loadSigningKeys(config)).toThrow('JWT_PRIVATE_KEY is required in production');
    Object.assign(config, { JWT_PRIVATE_KEY: ecPem() });
    expect(loadSigningKeys(config).algorithm).toBe('ES256');
  });

  describe('HS256', () => {
    const secret = 'an-hs256-secret-of-exactly-32-ch';
    const hs256 = (env: Record<string, string>, dir = tempDir()) =>
      loadSigningKeys(
        loadConfig({ APP_ENV: 'development', DATA_DIR: dir, JWT_ALGORITHM: 'HS256', ...env }),
      );

    it('should accept a secret of 32 characters, read from the setting or from a file', () => {
      expect(secret).toHaveLength(32);
      const keys = hs256({ JWT_PRIVATE_KEY: secret });
      expect(keys.signingKey).toBe(secret);
      expect(keys.verificationKey(keys.keyId)).toBe(secret);
      const file = path.join(tempDir(), 'secret');
      writeFileSync(file, secret);
      const fromFile = hs256({ JWT_PRIVATE_KEY_FILE: file });
      expect(fromFile.signingKey).toBe(secret);
      expect(fromFile.keyId).toBe(keys.keyId);
      expect(() => hs256({ JWT_PRIVATE_KEY: secret.slice(1) })).toThrow(
        /^JWT_PRIVATE_KEY: an HS256 secret must be at least 32 characters$/,
      );
    });

    it('should generate a text development secret once and reuse it after a restart', () => {
      const dir = tempDir();
      const first = hs256({}, dir);
      const stored = readFileSync(path.join(dir, DEV_KEY_FILE), 'utf8');
      // 48 random bytes as base64url: printable, and no PEM.
      expect(stored).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(first.signingKey).toBe(stored);
      const again = hs256({}, dir);
      expect(again.signingKey).toBe(stored);
      expect(again.keyId).toBe(first.keyId);
    });

    it('should keep retired secrets for verification as they are', () => {
      const retired = 'a-retired-secret\\nof-32-characters!';
      const keys = hs256({
        JWT_PRIVATE_KEY: secret,
        JWT_PREVIOUS_PUBLIC_KEYS: JSON.stringify({ old: retired }),
      });
      expect(keys.verificationKey('old')).toBe(retired);
    });

    it('should derive secrets from the signing secret, one per purpose', () => {
      const keys = hs256({ JWT_PRIVATE_KEY: secret });
      const cursor = keys.derivedSecret('cursor');
      expect(cursor).toHaveLength(32);
      expect(hs256({ JWT_PRIVATE_KEY: secret }).derivedSecret('cursor').equals(cursor)).toBe(true);
      expect(keys.derivedSecret('other').equals(cursor)).toBe(false);
      expect(
        hs256({ JWT_PRIVATE_KEY: `${secret}!` })
          .derivedSecret('cursor')
          .equals(cursor),
      ).toBe(false);
    });
  });

  describe('JWT_PREVIOUS_PUBLIC_KEYS', () => {
    const withPrevious = (json: string) =>
      loadSigningKeys(
        loadConfig({
          APP_ENV: 'development',
          DATA_DIR: tempDir(),
          JWT_PRIVATE_KEY: ecPem(),
          JWT_PREVIOUS_PUBLIC_KEYS: json,
        }),
      );

    it('should accept a \\n-escaped PEM public key, as one-line settings hold it', () => {
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const escaped = pair.publicKey
        .export({ format: 'pem', type: 'spki' })
        .toString()
        .replace(/\n/g, '\\n');
      const keys = withPrevious(JSON.stringify({ old: escaped }));
      expect((keys.verificationKey('old') as KeyObject).equals(pair.publicKey)).toBe(true);
    });

    it('should refuse a key that is not a string, or not a PEM public key, naming it', () => {
      expect(() => withPrevious('{"old": 5}')).toThrow(
        'JWT_PREVIOUS_PUBLIC_KEYS: key old must be a string',
      );
      expect(() => withPrevious('{"old": "not a key"}')).toThrow(
        'JWT_PREVIOUS_PUBLIC_KEYS: key old is not a PEM public key',
      );
    });
  });

  it('should give the cursors the secret derived for them', () => {
    const config = loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir() });
    const keys = loadSigningKeys(config);
    // Cursors issued before a restart or an upgrade stay valid only while this derivation holds.
    expect(cursorSecretOf(config, keys)).toEqual(new CursorSecret(keys.derivedSecret('cursor')));
  });
});
