import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  type MirrorOptions,
  type MirrorSummary,
  PosReadClient,
} from '../../../packages/client/src/index';
import { FakeMirrorApi } from './fake-mirror-api';
import { type MirrorTarget, SQLITE_TARGET } from './mirror-targets';

/** "Today" of the mirror specs in memory: the twelve sales' days are in its window. */
export const NOW = Date.parse('2026-03-20T12:00:00Z');

/** Records as the API returns them, for the mirror's specs against an in-memory service. */
export const line = (lineNo: number, gross: string) => ({
  lineNo,
  itemCode: `ITEM${lineNo}`,
  description: 'Café "solo"',
  quantity: '1.0000',
  unitPrice: gross,
  discount: '0.00',
  taxRate: '21.00',
  net: gross,
  tax: '0.00',
  gross,
});
/** The instant of a shop-local time of S1 (Europe/Madrid, UTC+1 in March), as the API writes it. */
export const utcOf = (local: string) => new Date(Date.parse(`${local}+01:00`)).toISOString();

export const sale = (id: number, soldAt: string, lines = [line(1, '2.00')]) => ({
  id: String(id),
  shopCode: 'S1',
  registerCode: 'R1',
  ticketNumber: `T${id}`,
  kind: 'SALE',
  status: 'COMPLETED',
  businessDate: soldAt.slice(0, 10),
  soldAt,
  soldAtUtc: utcOf(soldAt),
  currency: 'EUR',
  totalNet: '2.00',
  totalTax: '0.00',
  totalDiscount: '0.00',
  totalGross: '2.00',
  employeeCode: null,
  customerCode: id % 2 ? 'C1' : null,
  originalSaleId: null,
  lines,
});
export const payment = (id: number, paidAt: string) => ({
  id: String(id),
  saleId: String(id),
  shopCode: 'S1',
  registerCode: 'R1',
  paidAt,
  paidAtUtc: utcOf(paidAt),
  businessDate: paidAt.slice(0, 10),
  method: 'CARD',
  amount: '2.00',
  currency: 'EUR',
  cardBrand: 'VISA',
  reference: null,
});
export const movement = (id: number, movedAt: string) => ({
  id: String(id),
  shopCode: 'S1',
  registerCode: 'R1',
  movedAt,
  movedAtUtc: utcOf(movedAt),
  businessDate: movedAt.slice(0, 10),
  kind: 'CASH_IN',
  amount: '50.00',
  currency: 'EUR',
  reason: 'float',
  employeeCode: 'E1',
  saleId: null,
});

/** A drawer session of S1's register R1 opened at `openedAt`, counted two hours later unless OPEN. */
export const session = (id: number, openedAt: string, status: 'OPEN' | 'CLOSED' = 'CLOSED') => {
  const closedAt = status === 'OPEN' ? null : openedAt.replace('T08:', 'T10:');
  return {
    id: String(id),
    shopCode: 'S1',
    registerCode: 'R1',
    businessDate: openedAt.slice(0, 10),
    openedAt,
    openedAtUtc: utcOf(openedAt),
    closedAt,
    closedAtUtc: closedAt && utcOf(closedAt),
    status,
    currency: 'EUR',
    openingFloat: '100.00',
    cashSales: '12.00',
    cashRefunds: '0.00',
    cashIn: '0.00',
    cashOut: '0.00',
    expected: '112.00',
    counted: status === 'OPEN' ? null : '112.00',
    discrepancy: status === 'OPEN' ? null : '0.00',
    movementCount: status === 'OPEN' ? 2 : 3,
  };
};

/**
 * Twelve sales of shop S1 (two lines each) over five days, 2026-03-10 to 2026-03-14, each with
 * its payment, and a cash movement for every third: 14 days holding records in all; and a drawer
 * session of each of those days (ids 101 to 105), the last still OPEN.
 */
export function addTwelveSales(api: FakeMirrorApi): void {
  for (let id = 1; id <= 12; id++) {
    const at = `2026-03-${String(10 + (id % 5)).padStart(2, '0')}T09:${String(id).padStart(2, '0')}:00`;
    api.add('sales', sale(id, at, [line(1, '1.50'), line(2, '0.50')]));
    api.add('payments', payment(id, at));
    if (id % 3 === 0) api.add('cash-movements', movement(id, at));
  }
  for (let day = 10; day <= 14; day++) {
    api.add(
      'cash-drawer-sessions',
      session(91 + day, `2026-03-${day}T08:00:00.000`, day === 14 ? 'OPEN' : 'CLOSED'),
    );
  }
}

/** One test's in-memory service (with addTwelveSales), a client of it and a mirror file path. */
export interface FakeMirror {
  dir: string;
  into: string;
  api: FakeMirrorApi;
  client: PosReadClient;
  /** One mirror pass over the 35-day window to 2026-03-20, 5 records a feed page. */
  pass(options?: Partial<MirrorOptions>): Promise<MirrorSummary>;
}

/**
 * Registers the hooks that give each test a fresh FakeMirror (in a temporary folder), its copy
 * in a new SQLite file or a new database of the target's.
 */
export function fakeMirrorPerTest(
  prefix: string,
  target: MirrorTarget = SQLITE_TARGET,
): FakeMirror {
  const fake = {} as FakeMirror;
  let drop = async (): Promise<void> => undefined;
  beforeEach(async () => {
    fake.dir = mkdtempSync(path.join(tmpdir(), prefix));
    const place = await target.create(fake.dir, 'copy');
    fake.into = place.into;
    drop = place.drop;
    fake.api = new FakeMirrorApi();
    fake.client = new PosReadClient({
      baseUrl: 'https://fake',
      username: 'u',
      password: 'p',
      fetch: fake.api.fetch,
    });
    fake.pass = (options = {}) =>
      fake.client.mirror({ into: fake.into, window: 35, limit: 5, now: () => NOW, ...options });
    addTwelveSales(fake.api);
  });
  afterEach(async () => {
    await drop();
    rmSync(fake.dir, { recursive: true, force: true });
  });
  return fake;
}
