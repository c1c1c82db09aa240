import { createHash, createHmac } from 'node:crypto';
import { ProblemException } from '../../common/errors/problem';
import { CursorCodec, CursorState } from './cursor-codec';
import { CursorSecret } from '../../common/cursor-secret';

/** The secret of a configuration: CURSOR_SECRET, or (unset) bytes standing for the derived key. */
const secret = (configured?: string): CursorSecret =>
  CursorSecret.of(configured, () => createHash('sha256').update('a signing key').digest());

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
    const codec = new CursorCodec(secret());
    const cursor = codec.encode(state);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(cursor)).toEqual(state);
  });

  it("should sign an endpoint's next cursors for one caller: its route and subject, the filters, and the position", () => {
    const codec = new CursorCodec(secret());
    const sign = codec.signer('sales/bulk', 'user-7');
    const filters = { shopCode: 'S1', from: '2026-01-01 00:00:00.000', to: null };
    expect(codec.decode(sign(filters, { time: '2026-01-02 10:00:00.000', id: '42' }))).toEqual({
      resource: 'sales/bulk',
      subject: 'user-7',
      ...filters,
      afterTime: '2026-01-02 10:00:00.000',
      afterId: '42',
    });
  });

  it('should carry the business dates of a walk by business date, and write other cursors as before', () => {
    const codec = new CursorCodec(secret());
    const byDate = { ...state, businessDates: { from: '2026-03-28', to: '2026-03-30' } };
    expect(codec.decode(codec.encode(byDate))).toEqual(byDate);
    expect(codec.encode({ ...state, businessDates: null })).toBe(codec.encode(state));
    const body = codec.encode(byDate).split('.')[0];
    expect(JSON.parse(Buffer.from(body, 'base64url').toString())).toEqual([
      2,
      'sales',
      '7',
      'SHOP001',
      state.from,
      null,
      state.afterTime,
      state.afterId,
      '2026-03-28',
      '2026-03-30',
    ]);
  });

  it('should refuse a cursor whose content was changed', () => {
    const codec = new CursorCodec(secret());
    const [, mac] = codec.encode(state).split('.');
    const body = Buffer.from(
      JSON.stringify([1, 'sales', '7', 'SHOP002', null, null, 'x', '1']),
    ).toString('base64url');
    expect(refused(() => codec.decode(`${body}.${mac}`))).toBe(400);
  });

  it('should refuse a cursor made with another secret', () => {
    const cursor = new CursorCodec(secret('another-secret-another-secret-123456')).encode(state);
    expect(refused(() => new CursorCodec(secret()).decode(cursor))).toBe(400);
  });

  it('should sign with CURSOR_SECRET when it is set, whatever the signing key', () => {
    const configured = CursorSecret.of('a-cursor-secret', () => {
      throw new Error('derived although CURSOR_SECRET is set');
    });
    expect(configured.key.toString()).toBe('a-cursor-secret');
    const cursor = new CursorCodec(configured).encode(state);
    expect(new CursorCodec(secret('a-cursor-secret')).decode(cursor)).toEqual(state);
  });

  it.each(['', 'abc', '.', 'a.b', 'x'.repeat(50)])('should refuse garbage %p', (garbage) => {
    expect(refused(() => new CursorCodec(secret()).decode(garbage))).toBe(400);
  });

  /** A body signed with the codec's own secret: a cursor of another format of this service. */
  const signed = (wire: unknown, raw = JSON.stringify(wire)): string => {
    const body = Buffer.from(raw).toString('base64url');
    const mac = createHmac('sha256', secret().key).update(body).digest('base64url');
    return `${body}.${mac}`;
  };

  it('should accept a cursor of this format however it was signed, and nothing else under the same secret', () => {
    const codec = new CursorCodec(secret());
    const wire = [1, 'sales', '7', 'SHOP001', null, null, '2026-03-01 10:00:00.250', '5'];
    expect(codec.decode(signed(wire)).afterId).toBe('5');
    expect(codec.decode(signed([2, ...wire.slice(1), 'a', 'b'])).businessDates).toEqual({
      from: 'a',
      to: 'b',
    });
    for (const other of [
      [2, ...wire.slice(1)],
      [1, ...wire.slice(1), 'a', 'b'],
      [2, ...wire.slice(1), 'a'],
      [3, ...wire.slice(1), 'a', 'b'],
      wire.slice(0, 7),
      [...wire, 'extra'],
      { 0: 1, length: 8 },
      'a string',
    ]) {
      expect([other, refused(() => codec.decode(signed(other)))]).toEqual([other, 400]);
    }
    expect(refused(() => codec.decode(signed(null, '[1, "sales"')))).toBe(400);
  });

  it('should answer a cut or lengthened signature, or an empty body, with the same 400', () => {
    const codec = new CursorCodec(secret());
    const cursor = codec.encode(state);
    const [body, mac] = cursor.split('.');
    for (const bad of [
      `${body}.${mac.slice(0, 20)}`,
      `${body}.${mac}AAAA`,
      `${body}.`,
      `.${mac}`,
      `${body}${mac}`,
    ]) {
      expect([bad, refused(() => codec.decode(bad))]).toEqual([bad, 400]);
    }
  });

  it('should tell the client which parameter was refused, and nothing of the secret', () => {
    let problem: ProblemException | undefined;
    try {
      new CursorCodec(secret()).decode('a.b');
    } catch (error) {
      problem = error as ProblemException;
    }
    expect(problem?.slug).toBe('validation-error');
    expect(problem?.detail).toBe(
      'Cursor is not a cursor of this query: pass nextCursor exactly as it was returned.',
    );
    expect(problem?.errors).toEqual([
      { field: 'Cursor', message: 'invalid, tampered or issued for another query' },
    ]);
  });
});
