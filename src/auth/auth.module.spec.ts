import { JwtService } from '@nestjs/jwt';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../config/load-config';
import { hashQueueOf, jwtOptionsOf, refusalFloorOf, signInConnectionsOf } from './auth.module';
import { loadSigningKeys } from './keys/signing-keys';

const config = (env: Record<string, string> = {}) =>
  loadConfig({
    APP_ENV: 'development',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'auth-module-')),
    ...env,
  });

describe('AuthModule providers', () => {
  it('should sign tokens with the current key: its algorithm, and its kid in the header', async () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keys = loadSigningKeys(
      config({
        JWT_PRIVATE_KEY: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        JWT_KEY_ID: 'key-2026',
      }),
    );
    const token = await new JwtService(jwtOptionsOf(keys)).signAsync({ sub: '7' });
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'ES256',
      typ: 'JWT',
      kid: 'key-2026',
    });
    const signedWithTheKey = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: createPublicKey(pair.privateKey), dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    expect(signedWithTheKey).toBe(true);
  });

  it('should admit as many sign-ins as the hashing queue is configured for, and shed the next', () => {
    const queue = hashQueueOf(
      config({ PASSWORD_HASH_CONCURRENCY: '2', PASSWORD_HASH_QUEUE_SIZE: '1' }),
    );
    const tickets = [queue.admit(), queue.admit(), queue.admit()];
    expect(tickets.every((ticket) => ticket !== undefined)).toBe(true);
    expect(queue.admit()).toBeUndefined();
    expect(queue.stats()).toMatchObject({ queued: 3, shed: 1 });
  });

  it('should give the failure table a quarter of the configured pool', () => {
    expect(signInConnectionsOf(config({ DATABASE_POOL_SIZE: '20' })).share).toBe(5);
    expect(signInConnectionsOf(config()).share).toBe(2);
  });

  it('should hold refusals for the configured minimum response time', () => {
    expect(refusalFloorOf(config({ LOGIN_MIN_RESPONSE_MS: '350' })).floorMs).toBe(350);
  });
});
