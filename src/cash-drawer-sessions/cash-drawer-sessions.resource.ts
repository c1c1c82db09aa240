import { cents, decimal, fromCents, localDateTime } from '../common/sql-values';
import { instantOf } from '../common/zoned-time';
import { defineResource } from '../catalogue/resource';
import { CASH_DRAWER_SESSION_EXAMPLE, CashDrawerSessionDto } from './cash-drawer-session.dto';
import { CASH_DRAWER_SESSIONS, type CashDrawerSessionRow } from './cash-drawer-sessions.source';

/** The kinds summed into a field of their own; any other kind still counts in `expected`. */
const SUMMED = { SALE: 'cashSales', REFUND: 'cashRefunds', CASH_IN: 'cashIn', CASH_OUT: 'cashOut' };

/**
 * A session as GET /cash-drawer-sessions returns it, from its opening float and the movements
 * of its session (the count last, when counted), in exact cents: expected = the float plus every
 * movement before the count, counted = −(the count's amount), discrepancy = counted − expected.
 */
export function toCashDrawerSessionRecord(row: CashDrawerSessionRow): CashDrawerSessionDto {
  const sums: Record<string, bigint> = { cashSales: 0n, cashRefunds: 0n, cashIn: 0n, cashOut: 0n };
  const float = cents(row.amount);
  let expected = float;
  let count: (typeof row.movements)[number] | null = null;
  for (const movement of row.movements) {
    if (movement.kind === 'CLOSING_COUNT') {
      count = movement;
      break;
    }
    const amount = cents(movement.amount);
    expected += amount;
    const field = SUMMED[movement.kind as keyof typeof SUMMED] as string | undefined;
    if (field) sums[field] += amount;
  }
  const counted = count ? -cents(count.amount) : null;
  return {
    id: row.id,
    shopCode: row.shop_code,
    registerCode: row.register_code,
    businessDate: row.moved_at.slice(0, 10),
    openedAt: localDateTime(row.moved_at),
    openedAtUtc: instantOf(row.moved_at, row.time_zone),
    closedAt: count ? localDateTime(count.moved_at) : null,
    closedAtUtc: count ? instantOf(count.moved_at, row.time_zone) : null,
    status: count ? 'CLOSED' : 'OPEN',
    currency: row.currency,
    openingFloat: decimal(row.amount, 2),
    cashSales: fromCents(sums.cashSales),
    cashRefunds: fromCents(sums.cashRefunds),
    cashIn: fromCents(sums.cashIn),
    cashOut: fromCents(sums.cashOut),
    expected: fromCents(expected),
    counted: counted === null ? null : fromCents(counted),
    discrepancy: counted === null ? null : fromCents(counted - expected),
    movementCount: 1 + (count ? row.movements.indexOf(count) + 1 : row.movements.length),
  };
}

/** cash-drawer-sessions: the declaration the catalogue (src/app.catalogue.ts) lists; a list only. */
export const CASH_DRAWER_SESSIONS_RESOURCE = defineResource({
  route: 'cash-drawer-sessions',
  tag: {
    name: 'Cash drawer sessions',
    description: "Registers' drawer sessions, from the opening float to the count, by cursor.",
  },
  source: CASH_DRAWER_SESSIONS,
  record: CashDrawerSessionDto,
  example: CASH_DRAWER_SESSION_EXAMPLE,
  toRecord: toCashDrawerSessionRecord,
  datedBy: 'openedAt',
  list: {
    summary: 'List cash drawer sessions',
    description:
      'The drawer sessions of the registers of the shops in the token claims, by `openedAt` (From ' +
      'and To select the opening time; BusinessDateFrom and BusinessDateTo its date): each from its opening float to its closing count, with ' +
      'the cash it expected, the cash counted and the difference. A session is made of its ' +
      "register's cash movements in (`movedAt`, `id`) order: an OPENING_FLOAT opens it, and it " +
      'holds every later movement of that register up to and including the next CLOSING_COUNT; ' +
      'an OPENING_FLOAT while a session is open starts a new one and the earlier one stays ' +
      '`OPEN` (never counted). An open session changes when it is counted: read it again (by ' +
      'its opening time) until its status is `CLOSED`. No feed and no digest.',
  },
});
