import { PASSWORD_MAX_LENGTH } from '../../src/config/limits';
import { AdminError, ExitCode } from './admin-errors';
import { checkPassword, PASSWORD_MIN_LENGTH, passwordProblem } from './password-policy';

/** 15 different emoji: 15 characters, 30 UTF-16 units. */
const EMOJI_15 = '🔑🚲🌵🎻🧭🍋🛶🦉🎲🧲🪁🥁🦔🧩🪴';
/** The longest password the service reads, of characters that repeat no pattern. */
const LONGEST = Array.from({ length: PASSWORD_MAX_LENGTH }, (_, i) =>
  String.fromCharCode(97 + (((i * 2654435761) % 2 ** 32) % 26)),
).join('');

describe(passwordProblem.name, () => {
  it('should accept a passphrase of at least 15 characters that does not hold the username', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(15);
    expect(passwordProblem('alice', 'correct horse battery')).toBeUndefined();
    expect(passwordProblem('alice', 'mango rivet cloud lamp')).toBeUndefined();
    expect(passwordProblem('alice', LONGEST)).toBeUndefined();
  });

  it('should refuse the common passwords, repetitions and sequences of issue 44, saying why', () => {
    expect(passwordProblem('alice', 'aaaaaaaaaaaaaaa')).toBe(
      'The password is easy to guess: repeated characters like "aaa" are easy to guess.',
    );
    expect(passwordProblem('alice', '123456789012345')).toBe(
      'The password is easy to guess: this is similar to a commonly used password.',
    );
    expect(passwordProblem('alice', 'password1234567')).toBe(
      'The password is easy to guess: this is similar to a commonly used password.',
    );
    expect(passwordProblem('alice', 'abcabcabcabcabc')).toMatch(/repeated character patterns/);
    expect(passwordProblem('alice', 'qwertyuiopasdfg')).toMatch(/^The password is easy to guess/);
    expect(passwordProblem('alice', 'x'.repeat(PASSWORD_MAX_LENGTH))).toMatch(/repeated/);
  });

  it.each([
    'Password1234567!',
    'Welcome1Welcome2',
    'Monkey123456789!',
    'Football2024!!!!',
    'Winter2023Winter',
    'Sunshine1Sunshine2',
  ])(
    'should refuse %p, a common word with digits and a symbol (zxcvbn score 3, issue 54)',
    (password) => {
      expect(passwordProblem('alice', password)).toMatch(/^The password is easy to guess: /);
    },
  );

  it('should refuse fewer than 15 characters, counted as code points, saying how many', () => {
    expect(passwordProblem('alice', 'x'.repeat(14))).toBe(
      'The password has 14 characters: it needs at least 15.',
    );
    // 7 emoji are 14 UTF-16 units but 7 characters.
    expect(passwordProblem('alice', '🔑'.repeat(7))).toMatch(/has 7 characters/);
    expect(passwordProblem('alice', EMOJI_15)).toBeUndefined();
  });

  it('should refuse a password longer than the service reads at sign-in', () => {
    expect(passwordProblem('alice', 'x'.repeat(PASSWORD_MAX_LENGTH + 1))).toMatch(
      /longer than the 1024 characters the service reads/,
    );
  });

  it('should refuse the username itself, whatever its case or compatibility form', () => {
    const name = 'erp-integration-acme';
    expect(passwordProblem(name, name)).toBe('The password is the username.');
    expect(passwordProblem(name, 'ERP-Integration-ACME')).toBe('The password is the username.');
    expect(passwordProblem(name, 'ｅｒｐ-integration-acme')).toBe('The password is the username.');
    expect(passwordProblem(`${name} `, name)).toBe('The password is the username.');
  });

  it('should refuse a password containing a username of 4 characters or more', () => {
    expect(passwordProblem('alice', 'Alice2026-summer!')).toBe(
      'The password contains the username.',
    );
    expect(passwordProblem('erp-acme', 'my-erp-acme-password')).toBe(
      'The password contains the username.',
    );
    // A name of 3 characters is in too many words to refuse them all.
    expect(passwordProblem('bob', 'bobsleigh rivet quartz')).toBeUndefined();
  });
});

describe(checkPassword.name, () => {
  it('should throw a refusal (exit 3) that says the rule and that nothing was written', () => {
    let thrown: unknown;
    try {
      checkPassword('alice', 'alice');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AdminError);
    expect((thrown as AdminError).exitCode).toBe(ExitCode.refused);
    expect((thrown as AdminError).message).toBe(
      'The password has 5 characters: it needs at least 15. Nothing was written. A password has ' +
        'at least 15 characters, neither is nor contains the username, and is not a common ' +
        'password, a repetition or a sequence (a passphrase of several unrelated words is fine).',
    );
    expect(() => checkPassword('alice', 'correct horse battery')).not.toThrow();
  });

  it('should refuse a common password with exit 3 and its reason', () => {
    expect(() => checkPassword('alice', 'password1234567')).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.refused,
        message: expect.stringMatching(
          /^The password is easy to guess: this is similar to a commonly used password\. Nothing was written\./,
        ),
      }),
    );
  });
});
