import { PASSWORD_MAX_LENGTH } from '../../src/config/limits';
import { AdminError, ExitCode } from './admin-errors';
import { checkPassword, PASSWORD_MIN_LENGTH, passwordProblem } from './password-policy';

describe(passwordProblem.name, () => {
  it('should accept a passphrase of at least 15 characters that does not hold the username', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(15);
    expect(passwordProblem('alice', 'correct horse battery')).toBeUndefined();
    expect(passwordProblem('alice', 'x'.repeat(15))).toBeUndefined();
    expect(passwordProblem('alice', 'x'.repeat(PASSWORD_MAX_LENGTH))).toBeUndefined();
  });

  it('should refuse fewer than 15 characters, counted as code points, saying how many', () => {
    expect(passwordProblem('alice', 'x'.repeat(14))).toBe(
      'The password has 14 characters: it needs at least 15.',
    );
    // 7 emoji are 14 UTF-16 units but 7 characters.
    expect(passwordProblem('alice', '🔑'.repeat(7))).toMatch(/has 7 characters/);
    expect(passwordProblem('alice', '🔑'.repeat(15))).toBeUndefined();
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
    expect(passwordProblem('bob', 'bobsleigh champions')).toBeUndefined();
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
        'at least 15 characters and neither is nor contains the username (a passphrase of several ' +
        'words is fine).',
    );
    expect(() => checkPassword('alice', 'correct horse battery')).not.toThrow();
  });
});
