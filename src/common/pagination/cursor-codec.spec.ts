import { AppConfig } from '../../config/app-config';
import { SigningKeys } from '../../auth/keys/signing-keys';
import { ProblemException } from '../errors/problem';
import { CursorCodec, CursorState } from './cursor-codec';

const keys = new SigningKeys('HS256', 'k', 'a-signing-secret-of-at-least-32-chars!', new Map());
const config = (secret?: string): AppConfig =>
  Object.assign(new AppConfig(), { CURSOR_SECRET: secret });

const state: CursorState = {
  resource: 'sales',
  subject: '7',
  shopCode: 'SHOP001',
  from: '2026-03-01 00:00:00.000',
  to: null,
  afterTime: '2026-03-01 10:00:00.250',
  afterId: '9007199254740993',
};

const refused = (fn: () => unknown): number => {
  try {
    fn();
  } catch (e) {
    return (e as ProblemException).getStatus();
  }
  return 0;
};

describe(CursorCodec.name, () => {
  it('should round-trip a state through an opaque URL-safe string', () => {
    const codec = new CursorCodec(config(), keys);
    const cursor = codec.encode(state);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(cursor)).toEqual(state);
  });

  it('should refuse a cursor whose content was changed', () => {
    const codec = new CursorCodec(config(), keys);
    const [, mac] = codec.encode(state).split('.');
    const body = Buffer.from(
      JSON.stringify([1, 'sales', '7', 'SHOP002', null, null, 'x', '1']),
    ).toString('base64url');
    expect(refused(() => codec.decode(`${body}.${mac}`))).toBe(400);
  });

  it('should refuse a cursor made with another secret', () => {
    const cursor = new CursorCodec(config('another-secret-another-secret-123456'), keys).encode(
      state,
    );
    expect(refused(() => new CursorCodec(config(), keys).decode(cursor))).toBe(400);
  });

  it.each(['', 'abc', '.', 'a.b', 'x'.repeat(50)])('should refuse garbage %p', (garbage) => {
    expect(refused(() => new CursorCodec(config(), keys).decode(garbage))).toBe(400);
  });
});
