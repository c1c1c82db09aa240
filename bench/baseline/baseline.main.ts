import 'reflect-metadata';
import { createPublicKey } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createPool } from 'mysql2';
import { CursorCodec } from '../../src/sync/paging/cursor-codec';
import { CursorSecret } from '../../src/common/cursor-secret';
import { createBaselineServer } from './baseline-server';

/** Printed on stdout once listening; the runner waits for it. */
export const LISTENING = 'BASELINE_LISTENING';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

/**
 * The raw baseline as its own process, configured like the service: DATABASE_URL, the service's
 * public key (JWT_PUBLIC_KEY), JWT_ISSUER, JWT_AUDIENCE, CURSOR_SECRET, DATABASE_POOL_SIZE.
 */
function main(): void {
  const url = new URL(required('DATABASE_URL').replace(/^mariadb:/, 'mysql:'));
  // The connection settings of the service (src/database/data-source.options.ts).
  const pool = createPool({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    stringifyObjects: true,
    connectionLimit: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    maxIdle: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    enableKeepAlive: true,
  });
  // The service's cursor key with CURSOR_SECRET set: its bytes (CursorSecret.of).
  const cursors = new CursorCodec(new CursorSecret(Buffer.from(required('CURSOR_SECRET'))));
  const server = createBaselineServer({
    pool,
    cursors,
    jwt: {
      publicKey: createPublicKey(required('JWT_PUBLIC_KEY')),
      issuer: required('JWT_ISSUER'),
      audience: required('JWT_AUDIENCE'),
    },
  });
  server.keepAliveTimeout = 72_000;
  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
    console.log(`${LISTENING} ${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    pool.end(() => process.exit(0));
  });
}

main();
