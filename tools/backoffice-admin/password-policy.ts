import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { PASSWORD_MAX_LENGTH } from '../../src/config/limits';
import { refused } from './admin-errors';

/**
 * The admin command's minimum password policy (docs/decisions.md 22.5): at least 15 characters
 * (NIST SP 800-63B-4 for a password that is the only factor, as sign-in here is), counted as
 * Unicode code points; not the username, nor containing it when it has 4 characters or more
 * (case and compatibility forms ignored); no longer than the service reads at sign-in; and not
 * easy to guess (issue 44, SP 800-63B's check against common and compromised passwords): zxcvbn's
 * estimate, offline, over the common-password list and English words of @zxcvbn-ts (about 50,000
 * passwords), with its repetitions, sequences and keyboard walks, must reach 10^10 guesses
 * (score 4: at 10^8, score 3, a common word with digits and a symbol passed, `Password1234567!`,
 * `Welcome1Welcome2`; issue 54). No composition rules (the same guidance).
 */
export const PASSWORD_MIN_LENGTH = 15;
const USERNAME_MIN_LENGTH_FOR_CONTAINS = 4;

const folded = (text: string): string => text.normalize('NFKC').toLowerCase();

/** zxcvbn's score from which a password is accepted: 4, at least 10^10 guesses. */
const MIN_GUESS_SCORE = 4;

let estimator: ZxcvbnFactory | undefined;

/** Why zxcvbn finds the password easy to guess, or undefined (its dictionaries loaded once). */
function guessable(password: string, username: string): string | undefined {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  const { score, feedback } = estimator.check(password, [username]);
  if (score >= MIN_GUESS_SCORE) return undefined;
  // Score 3 often comes without a warning: common words with digits, symbols or a repetition.
  const why =
    feedback.warning ||
    'It is a common word or name with digits, symbols or a repetition (fewer than 10^10 guesses).';
  return `The password is easy to guess: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;
}

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
  return guessable(password, username);
}

/** Throws a refusal (exit 3) that says what is wrong and what is asked. */
export function checkPassword(username: string, password: string): void {
  const problem = passwordProblem(username, password);
  if (problem !== undefined) {
    throw refused(
      `${problem} Nothing was written. A password has at least ${PASSWORD_MIN_LENGTH} characters, ` +
        'neither is nor contains the username, and is not a common password, a repetition or a ' +
        'sequence (a passphrase of several unrelated words is fine).',
    );
  }
}
