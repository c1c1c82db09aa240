import { dialectOf } from './store.js';

/** Query parameters of an --into URL that carry a secret (node-postgres and mysql2 read them). */
export const SECRET_PARAMETER = /pass(word|phrase)/i;

/** Whether an --into URL has a secret in its query (`?password=`, `?sslpassword=`, …). */
export function hasSecretParameter(into: string): boolean {
  try {
    return [...new URL(into).searchParams.keys()].some((key) => SECRET_PARAMETER.test(key));
  } catch {
    return false;
  }
}

/** This machine: loopback addresses, localhost, or no host (a Unix socket). */
function isLocal(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === '' || bare === 'localhost' || bare === '::1' || /^127\./.test(bare);
}

/**
 * Whether the URL asks its driver for TLS: PostgreSQL's `sslmode` (but `disable`, `allow`,
 * `prefer`, which may fall back to plain text) or `ssl=true`; MySQL's `ssl` (mysql2 reads
 * `?ssl={"rejectUnauthorized":true}`, and `ssl=true` as `{}`: verified against the CAs Node knows).
 */
function asksForTls(url: URL, dialect: 'postgres' | 'mysql'): boolean {
  const get = (key: string) => url.searchParams.get(key)?.toLowerCase();
  if (dialect === 'postgres') {
    const mode = get('sslmode');
    if (mode) return !['disable', 'allow', 'prefer'].includes(mode);
    return get('ssl') === 'true' || get('ssl') === '1';
  }
  const ssl = get('ssl');
  return ssl !== undefined && !['', 'false', '0', 'null'].includes(ssl);
}

/**
 * A warning when the mirror would send its rows and password to another machine in plain text:
 * a PostgreSQL or MySQL URL with a host that is not this machine's and no TLS asked for.
 */
export function plainTextWarning(into: string): string | undefined {
  const dialect = dialectOf(into);
  if (dialect === 'sqlite') return undefined;
  let url: URL;
  try {
    url = new URL(into);
  } catch {
    return undefined;
  }
  if (isLocal(url.hostname) || asksForTls(url, dialect)) return undefined;
  const fix =
    dialect === 'postgres'
      ? 'add ?sslmode=verify-full to --into (and sslrootcert=FILE for a private CA)'
      : 'add ?ssl=true to --into (verified against the CAs Node knows; NODE_EXTRA_CA_CERTS=FILE adds a private CA)';
  return `the connection to ${url.hostname} is not encrypted: the rows and the password cross the network in plain text; ${fix}`;
}

/** mysql2 reads `ssl` as JSON and wants an object: `ssl=true` (or `1`) means verified TLS, `{}`. */
export function mysqlUri(into: string): string {
  const uri = into.replace(/^mariadb:/i, 'mysql:');
  const url = new URL(uri);
  const ssl = url.searchParams.get('ssl')?.toLowerCase();
  if (ssl === undefined) return uri;
  if (ssl === 'true' || ssl === '1') url.searchParams.set('ssl', '{}');
  if (ssl === 'false' || ssl === '0') url.searchParams.delete('ssl');
  return url.toString();
}
