/**
 * What must never appear in a log line, for the end-to-end suite's check of every captured log
 * (no-secrets-in-logs.ts): secrets recognised by their shape, and the exact passwords and hashes
 * the test factories created in this spec file (the registry below). Independent of the
 * service's own scrubber (src/operations/logging/log-scrubber.ts), so that the check still
 * catches a secret if the scrubber stops doing its job.
 */

export type SecretKind =
  | 'JWT'
  | 'Bearer token'
  | 'argon2 hash'
  | 'bcrypt hash'
  | 'ASP.NET Identity hash'
  | 'PEM block'
  | 'password of a test user'
  | 'password hash of a test user';

const SHAPES: ReadonlyArray<[SecretKind, RegExp]> = [
  ['JWT', /eyJ[\w-]{2,}\.[\w-]{2,}\.[\w-]*/],
  ['Bearer token', /\bBearer\s+[A-Za-z0-9\-._~+/]{8,}/i],
  ['argon2 hash', /\$argon2(?:id|i|d)\$/],
  ['bcrypt hash', /\$2[aby]\$\d\d\$/],
  ['ASP.NET Identity hash', /(?<![A-Za-z0-9+/])AQAAAA[A-Za-z0-9+/]{40,}/],
  ['PEM block', /-----BEGIN [A-Z0-9 ]+-----/],
];

/**
 * Passwords shorter than this are not looked for: a word like 'plain' or 'wrong' appears in
 * ordinary text. The factories' default passwords are much longer.
 */
const MIN_REGISTERED_PASSWORD_LENGTH = 8;

/** The secrets the test factories created in this spec file (jest isolates modules per file). */
export class TestSecrets {
  private readonly passwords = new Set<string>();
  private readonly hashes = new Set<string>();

  addPassword(password: string): void {
    if (password.length >= MIN_REGISTERED_PASSWORD_LENGTH) this.passwords.add(password);
  }

  addPasswordHash(hash: string): void {
    if (hash.length >= MIN_REGISTERED_PASSWORD_LENGTH) this.hashes.add(hash);
  }

  /** [kind, text as it may appear in a line: raw and JSON-escaped]. */
  *exact(): Generator<[SecretKind, string]> {
    for (const [kind, values] of [
      ['password of a test user', this.passwords],
      ['password hash of a test user', this.hashes],
    ] as const) {
      for (const value of values) {
        yield [kind, value];
        const escaped = JSON.stringify(value).slice(1, -1);
        if (escaped !== value) yield [kind, escaped];
      }
    }
  }
}

export const testSecrets = new TestSecrets();

/** How many lines hold each kind of secret (kinds with none are absent). */
export function findSecrets(
  lines: readonly string[],
  known: TestSecrets = testSecrets,
): Map<SecretKind, number> {
  const exact = [...known.exact()];
  const found = new Map<SecretKind, number>();
  for (const line of lines) {
    const kinds = new Set<SecretKind>();
    for (const [kind, pattern] of SHAPES) if (pattern.test(line)) kinds.add(kind);
    for (const [kind, value] of exact) if (line.includes(value)) kinds.add(kind);
    for (const kind of kinds) found.set(kind, (found.get(kind) ?? 0) + 1);
  }
  return found;
}

/** The failure message: which spec, which kinds, how many lines; never the secret itself. */
export function secretsFoundMessage(
  spec: string,
  found: ReadonlyMap<SecretKind, number>,
  logFile: string,
): string {
  const kinds = [...found].map(([kind, lines]) => `${kind} (${lines} line(s))`).join(', ');
  return `Secrets in the log of ${spec}: ${kinds}. Not printed here; the log is in ${logFile}.`;
}
