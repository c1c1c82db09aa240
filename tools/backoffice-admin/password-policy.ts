import { PASSWORD_MAX_LENGTH } from '../../src/config/limits';
import { refused } from './admin-errors';

/**
 * The admin command's minimum password policy (docs/decisions.md 22.5): at least 15 characters
 * (NIST SP 800-63B-4 for a password that is the only factor, as sign-in here is), counted as
 * Unicode code points; not the username, nor containing it when it has 4 characters or more
 * (case and compatibility forms ignored); no longer than the service reads at sign-in. No
 * composition rules (the same guidance).
 */
export const PASSWORD_MIN_LENGTH = 15;
const USERNAME_MIN_LENGTH_FOR_CONTAINS = 4;

const folded = (text: string): string => text.normalize('NFKC').toLowerCase();

/** Why the password is refused for this username, or undefined when it is acceptable. */
export function passwordProblem(username: string, password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `The password has ${length} characters: it needs at least ${PASSWORD_MIN_LENGTH}.`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `The password is longer than the ${PASSWORD_MAX_LENGTH} characters the service reads at sign-in.`;
  }
  const [name, secret] = [folded(username.trim()), folded(password)];
  if (secret === name) return 'The password is the username.';
  if ([...name].length >= USERNAME_MIN_LENGTH_FOR_CONTAINS && secret.includes(name)) {
    return 'The password contains the username.';
  }
  return undefined;
}

/** Throws a refusal (exit 3) that says what is wrong and what is asked. */
export function checkPassword(username: string, password: string): void {
  const problem = passwordProblem(username, password);
  if (problem !== undefined) {
    throw refused(
      `${problem} Nothing was written. A password has at least ${PASSWORD_MIN_LENGTH} characters ` +
        'and neither is nor contains the username (a passphrase of several words is fine).',
    );
  }
}
