import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../config/load-config';
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
    ).toThrow(/cannot read/);
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
});
