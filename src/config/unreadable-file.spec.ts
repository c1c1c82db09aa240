import { unreadableFileMessage } from './unreadable-file';

const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });

describe(unreadableFileMessage.name, () => {
  it("should name the service's uid, the file's owner and mode, and the command that fixes it on EACCES", () => {
    const stat = () => ({ uid: 0, mode: 0o100600 });
    expect(
      unreadableFileMessage('JWT_PRIVATE_KEY_FILE', '/run/secrets/jwt.pem', denied, 1000, stat),
    ).toBe(
      'JWT_PRIVATE_KEY_FILE: cannot read /run/secrets/jwt.pem: permission denied for uid 1000 ' +
        '(owned by uid 0, mode 0600); make it readable: chown 1000 /run/secrets/jwt.pem',
    );
  });

  it('should still name the uid when the file cannot even be looked at', () => {
    const stat = () => {
      throw denied;
    };
    expect(unreadableFileMessage('K', '/x/k.pem', { code: 'EPERM' }, 1000, stat)).toBe(
      'K: cannot read /x/k.pem: permission denied for uid 1000; make it readable: chown 1000 /x/k.pem',
    );
    expect(unreadableFileMessage('K', '/x/k.pem', denied, undefined, stat)).toBe(
      'K: cannot read /x/k.pem: permission denied for this user',
    );
  });

  it.each([
    [{ code: 'ENOENT' }, 'K: cannot read /k.pem: no such file'],
    [{ code: 'EISDIR' }, 'K: cannot read /k.pem: a directory, not a file'],
    [{ code: 'EIO' }, 'K: cannot read /k.pem: EIO'],
    [new Error('odd'), 'K: cannot read /k.pem'],
  ])('should say why otherwise (%p)', (error, message) => {
    expect(unreadableFileMessage('K', '/k.pem', error, 1000)).toBe(message);
  });
});
