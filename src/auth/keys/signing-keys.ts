import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CursorSecret } from '../../common/cursor-secret';
import { AppConfig, JwtAlgorithm } from '../../config/app-config';
import { makeDataDir } from '../../config/data-dir';
import { unreadableFileMessage } from '../../config/unreadable-file';

export type VerificationKey = KeyObject | string;

/** The key that signs tokens now, and every key whose tokens are still accepted. */
export class SigningKeys {
  constructor(
    readonly algorithm: JwtAlgorithm,
    readonly keyId: string,
    readonly signingKey: KeyObject | string,
    private readonly verificationKeys: ReadonlyMap<string, VerificationKey>,
  ) {}

  verificationKey(kid: unknown): VerificationKey | undefined {
    // Mutation testing: `true ? ...` survives, and is equivalent: a Map of string keys has no
    // other kid. Not disabled: `false ? ...`, of the same mutator, is killed.
    return typeof kid === 'string' ? this.verificationKeys.get(kid) : undefined;
  }

  get keyIds(): string[] {
    return [...this.verificationKeys.keys()];
  }

  /** Stable bytes derived from the signing key, for secrets that default to it (cursor signing). */
  derivedSecret(purpose: string): Buffer {
    const material =
      typeof this.signingKey === 'string'
        ? Buffer.from(this.signingKey)
        : this.signingKey.export({ format: 'der', type: 'pkcs8' });
    return createHash('sha256').update(`pos-read-api:${purpose}:`).update(material).digest();
  }
}

export const DEV_KEY_FILE = 'jwt-signing-key.pem';

/** Key id from the public key: the same key always gets the same kid. */
function keyIdOf(key: KeyObject | string): string {
  const material =
    typeof key === 'string'
      ? Buffer.from(key)
      : createPublicKey(key).export({ format: 'der', type: 'spki' });
  return createHash('sha256').update(material).digest('base64url').slice(0, 16);
}

function readPrivateKey(config: AppConfig): { pem: string; source: string } | undefined {
  if (config.JWT_PRIVATE_KEY)
    return { pem: config.JWT_PRIVATE_KEY.replace(/\\n/g, '\n'), source: 'JWT_PRIVATE_KEY' };
  if (config.JWT_PRIVATE_KEY_FILE) {
    try {
      return {
        pem: readFileSync(config.JWT_PRIVATE_KEY_FILE, 'utf8'),
        source: 'JWT_PRIVATE_KEY_FILE',
      };
    } catch (error) {
      throw new Error(
        unreadableFileMessage(
          'JWT_PRIVATE_KEY_FILE',
          config.JWT_PRIVATE_KEY_FILE,
          error,
          // Stryker disable next-line OptionalChaining: process.getuid is missing on Windows only
          process.getuid?.(),
        ),
      );
    }
  }
  return undefined;
}

/** Development and preproduction without a configured key: one generated key kept in DATA_DIR. */
function developmentKey(config: AppConfig): string {
  const file = path.resolve(config.DATA_DIR, DEV_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8');
  makeDataDir(path.dirname(file));
  const pem =
    config.JWT_ALGORITHM === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .privateKey.export({ format: 'pem', type: 'pkcs8' })
          .toString()
      : randomBytes(48).toString('base64url');
  writeFileSync(file, pem, { mode: 0o600 });
  return pem;
}

function parseSigningKey(algorithm: JwtAlgorithm, pem: string, source: string): KeyObject | string {
  if (algorithm === 'HS256') {
    if (pem.length < 32)
      throw new Error(`${source}: an HS256 secret must be at least 32 characters`);
    return pem;
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error(`${source}: not a PEM private key`);
  }
  // Mutation testing: `false || ...` survives, and is equivalent: only an EC key has a namedCurve.
  // Not disabled: `true` and the other conditions, of the same mutator, are killed.
  // Stryker disable next-line OptionalChaining: the details are read only for an EC key (the || before), and Node gives every EC private key its details
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error(`${source}: ES256 needs an EC P-256 private key`);
  }
  return key;
}

function parsePreviousKeys(
  algorithm: JwtAlgorithm,
  json: string | undefined,
): Map<string, VerificationKey> {
  const keys = new Map<string, VerificationKey>();
  if (!json) return keys;
  for (const [kid, value] of Object.entries(JSON.parse(json) as Record<string, unknown>)) {
    if (typeof value !== 'string')
      throw new Error(`JWT_PREVIOUS_PUBLIC_KEYS: key ${kid} must be a string`);
    if (algorithm === 'HS256') {
      keys.set(kid, value);
      continue;
    }
    try {
      keys.set(kid, createPublicKey(value.replace(/\\n/g, '\n')));
    } catch {
      throw new Error(`JWT_PREVIOUS_PUBLIC_KEYS: key ${kid} is not a PEM public key`);
    }
  }
  return keys;
}

export function loadSigningKeys(config: AppConfig): SigningKeys {
  const configured = readPrivateKey(config);
  if (!configured && config.isProduction)
    throw new Error('JWT_PRIVATE_KEY is required in production');
  const { pem, source } = configured ?? {
    pem: developmentKey(config),
    source: `${config.DATA_DIR}/${DEV_KEY_FILE}`,
  };
  const signingKey = parseSigningKey(config.JWT_ALGORITHM, pem, source);
  const keyId = config.JWT_KEY_ID ?? keyIdOf(signingKey);
  const verification = parsePreviousKeys(config.JWT_ALGORITHM, config.JWT_PREVIOUS_PUBLIC_KEYS);
  verification.set(
    keyId,
    typeof signingKey === 'string' ? signingKey : createPublicKey(signingKey),
  );
  return new SigningKeys(config.JWT_ALGORITHM, keyId, signingKey, verification);
}

/** The key of the cursors (sync/paging): CURSOR_SECRET, else derived from the signing key. */
export function cursorSecretOf(config: AppConfig, keys: SigningKeys): CursorSecret {
  return CursorSecret.of(config.CURSOR_SECRET, () => keys.derivedSecret('cursor'));
}
