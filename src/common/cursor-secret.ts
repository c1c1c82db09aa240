/**
 * The key that signs cursors: CURSOR_SECRET when it is set, else bytes derived from the token
 * signing key, so every instance that shares the key accepts the cursors of the others. auth's
 * KeysModule provides it (it holds the signing key); common/ only receives the bytes.
 */
export class CursorSecret {
  constructor(readonly key: Buffer) {}

  static of(configured: string | undefined, derived: () => Buffer): CursorSecret {
    return new CursorSecret(configured ? Buffer.from(configured) : derived());
  }
}
