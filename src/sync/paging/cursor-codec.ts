import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../../common/errors/problem';
import { CursorSecret } from '../../common/cursor-secret';
import type { BusinessDates } from '../../common/query/filter-parameters';

/** What a cursor carries: the query it belongs to and the last row of the page it follows. */
export interface CursorState {
  /** Resource (sales, payments, cash-movements). */
  resource: string;
  /** The token subject it was issued to. */
  subject: string;
  shopCode: string | null;
  from: string | null;
  to: string | null;
  /** Keyset position: stored date-time and id of the last row returned. */
  afterTime: string;
  afterId: string;
  /** BusinessDateFrom and BusinessDateTo of a walk by business date; absent or null: none. */
  businessDates?: BusinessDates | null;
}

type Wire = [1, string, string, string | null, string | null, string | null, string, string];
/** A walk by business date's: version 2, the dates after the position. */
type WireByDate = [2, ...Tail<Wire>, string, string];
type Tail<T extends unknown[]> = T extends [unknown, ...infer U] ? U : never;

const invalid = () =>
  badRequest('Cursor is not a cursor of this query: pass nextCursor exactly as it was returned.', [
    { field: 'Cursor', message: 'invalid, tampered or issued for another query' },
  ]);

/**
 * Opaque, URL-safe, signed cursors: base64url(JSON) + '.' + base64url(HMAC-SHA256) under the
 * CursorSecret (CURSOR_SECRET, or derived from the token signing key), so nobody else can forge
 * or alter one.
 */
@Injectable()
export class CursorCodec {
  private readonly secret: Buffer;

  constructor(secret: CursorSecret) {
    this.secret = secret.key;
  }

  /**
   * Signs the next calls' cursors of one endpoint (`sales`, `sales/feed`, `sales/bulk`) for one
   * caller: what a mode's envelope is given, so each mode alone decides what its cursor carries.
   */
  signer(
    resource: string,
    subject: string,
  ): (
    filters: Pick<CursorState, 'shopCode' | 'from' | 'to' | 'businessDates'>,
    after: { time: string; id: string },
  ) => string {
    return (filters, after) =>
      this.encode({ resource, subject, ...filters, afterTime: after.time, afterId: after.id });
  }

  encode(state: CursorState): string {
    const common = [
      state.resource,
      state.subject,
      state.shopCode,
      state.from,
      state.to,
      state.afterTime,
      state.afterId,
    ] satisfies Tail<Wire>;
    // Version 1 unless by business date: the cursors of every other walk stay as they were.
    const dates = state.businessDates;
    const wire: Wire | WireByDate = dates ? [2, ...common, dates.from, dates.to] : [1, ...common];
    const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The state of a cursor issued by this service, or a 400. */
  decode(cursor: string): CursorState {
    const dot = cursor.indexOf('.');
    // Mutation testing: `dot < 0` and `false` here survive, and are equivalent: an empty body
    // fails JSON.parse below, and without a dot the signature would have to be the MAC of the
    // cursor's own prefix. Not disabled: `true` and `dot > 0`, of the same mutators, are killed.
    if (dot <= 0) throw invalid();
    const body = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let wire: unknown;
    try {
      wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      // Mutation testing: the emptied catch survives, and is equivalent: it leaves wire undefined,
      // which the array check below refuses with the same 400. (No line precedes `catch` for a
      // disable comment.)
    } catch {
      throw invalid();
    }
    const known =
      Array.isArray(wire) &&
      ((wire.length === 8 && wire[0] === 1) || (wire.length === 10 && wire[0] === 2));
    if (!known) throw invalid();
    const [, resource, subject, shopCode, from, to, afterTime, afterId, dateFrom, dateTo] =
      wire as WireByDate;
    const state = { resource, subject, shopCode, from, to, afterTime, afterId };
    return (wire as WireByDate)[0] === 2
      ? { ...state, businessDates: { from: dateFrom, to: dateTo } }
      : state;
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.secret).update(body).digest();
  }
}
