import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MirrorFileError, NetworkError, PosReadClient } from '../../packages/client/src/index';
import { loadSqliteDriver } from '../../packages/client/src/mirror/sqlite-driver';
import { FakeMirrorApi } from './support/fake-mirror-api';
import { mirrorTables, tamper } from './support/mirror-tables';

const NOW = Date.parse('2026-03-20T12:00:00Z');

const line = (lineNo: number, gross: string) => ({
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
const sale = (id: number, soldAt: string, lines = [line(1, '2.00')]) => ({
  id: String(id),
  shopCode: 'S1',
  registerCode: 'R1',
  ticketNumber: `T${id}`,
  kind: 'SALE',
  status: 'COMPLETED',
  businessDate: soldAt.slice(0, 10),
  soldAt,
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
const payment = (id: number, paidAt: string) => ({
  id: String(id),
  saleId: String(id),
  shopCode: 'S1',
  registerCode: 'R1',
  paidAt,
  method: 'CARD',
  amount: '2.00',
  currency: 'EUR',
  cardBrand: 'VISA',
  reference: null,
});
const movement = (id: number, movedAt: string) => ({
  id: String(id),
  shopCode: 'S1',
  registerCode: 'R1',
  movedAt,
  kind: 'CASH_IN',
  amount: '50.00',
  currency: 'EUR',
  reason: 'float',
  employeeCode: 'E1',
  saleId: null,
});

describe('Client: mirror() logic against the contract, in memory (issue 25)', () => {
  let dir: string;
  let api: FakeMirrorApi;
  let client: PosReadClient;
  let into: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mirror-logic-'));
    into = path.join(dir, 'copy.sqlite');
    api = new FakeMirrorApi();
    client = new PosReadClient({
      baseUrl: 'https://fake',
      username: 'u',
      password: 'p',
      fetch: api.fetch,
    });
    for (let id = 1; id <= 12; id++) {
      const at = `2026-03-${String(10 + (id % 5)).padStart(2, '0')}T09:${String(id).padStart(2, '0')}:00`;
      api.add('sales', sale(id, at, [line(1, '1.50'), line(2, '0.50')]));
      api.add('payments', payment(id, at));
      if (id % 3 === 0) api.add('cash-movements', movement(id, at));
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pass = (extra = {}) =>
    client.mirror({ into, window: 35, limit: 5, now: () => NOW, ...extra });
  const api_ = () => ({
    sales: api.records.sales.slice().sort((a, b) => Number(a.id) - Number(b.id)),
    payments: api.records.payments.slice().sort((a, b) => Number(a.id) - Number(b.id)),
    'cash-movements': api.records['cash-movements']
      .slice()
      .sort((a, b) => Number(a.id) - Number(b.id)),
  });

  it('should copy every record by the feeds, then find nothing to repair', async () => {
    const summary = await pass();
    expect(await mirrorTables(into)).toEqual(api_());
    expect(summary.rows).toEqual({ sales: 12, sale_lines: 24, payments: 12, cash_movements: 4 });
    expect(summary.daysRepaired).toBe(0);
    expect(summary.daysChecked).toBe(3 * 36);
    expect((await pass({ verifyOnly: true })).differing).toEqual([]);
  });

  it('should take late uploads from the feed and voids, changed lines and deletes from the digests', async () => {
    await pass();
    api.add('sales', sale(40, '2026-03-01T08:00:00'));
    api.records.sales[2].status = 'VOIDED';
    api.records.sales[4].lines = [line(1, '9.99')];
    api.records['cash-movements'].splice(1, 1);
    api.records.payments[0].reference = 'AUTH-1';
    const before = api.paths.length;
    const summary = await pass();
    expect(await mirrorTables(into)).toEqual(api_());
    expect(summary.daysRepaired).toBe(4);
    // Only the four differing days were listed again.
    const lists = api.paths.slice(before).filter((p) => /^\/api\/v1\.0\/[a-z-]+\?/.test(p));
    expect(lists).toHaveLength(4);
  });

  it('should find a row changed in the file behind its back, and repair it on the next pass', async () => {
    await pass();
    await tamper(into, "UPDATE sales SET total_gross = '0.01' WHERE id = 3");
    await tamper(into, 'DELETE FROM sale_lines WHERE sale_id = 5 AND line_no = 2');
    const verify = await pass({ verifyOnly: true });
    expect(verify.differing.map((d) => [d.resource, d.date])).toEqual(
      [
        ['sales', '2026-03-13'],
        ['sales', '2026-03-10'],
      ].sort((a, b) => a[1].localeCompare(b[1])),
    );
    expect(await mirrorTables(into)).not.toEqual(api_());
    await pass();
    expect(await mirrorTables(into)).toEqual(api_());
  });

  it('should resume after a failure between pages without losing or doubling a row', async () => {
    let feedCalls = 0;
    const failing: typeof fetch = (input, init) => {
      if ((input as string).includes('/feed') && ++feedCalls === 2) throw new TypeError('cut');
      return api.fetch(input, init);
    };
    const broken = new PosReadClient({
      baseUrl: 'https://fake',
      username: 'u',
      password: 'p',
      fetch: failing,
      retry: { maxRetries: 0 },
    });
    await expect(broken.mirror({ into, limit: 5, now: () => NOW })).rejects.toThrow(NetworkError);
    expect((await mirrorTables(into)).sales).toHaveLength(5);
    await pass();
    expect(await mirrorTables(into)).toEqual(api_());
  });

  it('should refuse a file that is not its own, and leave it as it was', async () => {
    const text = path.join(dir, 'notes.sqlite');
    writeFileSync(
      text,
      'not a database at all, just text that is long enough to be read\n'.repeat(50),
    );
    const before = readFileSync(text);
    await expect(pass({ into: text })).rejects.toThrow(/not a SQLite database/);
    expect(readFileSync(text)).toEqual(before);

    const foreign = path.join(dir, 'erp.sqlite');
    const Driver = await loadSqliteDriver();
    const db = new Driver(foreign);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY); INSERT INTO invoices VALUES (1);');
    db.close();
    const foreignBefore = readFileSync(foreign);
    await expect(pass({ into: foreign })).rejects.toThrow(MirrorFileError);
    await expect(pass({ into: foreign })).rejects.toThrow(/not a pos-read mirror.*invoices/);
    expect(readFileSync(foreign)).toEqual(foreignBefore);

    await pass();
    await tamper(into, "UPDATE mirror_state SET value = '2' WHERE key = 'schema_version'");
    await expect(pass()).rejects.toThrow(/newer pos-read \(mirror version 2/);
    await tamper(into, "UPDATE mirror_state SET value = '1' WHERE key = 'schema_version'");
    await expect(pass({ shops: ['S1'] })).rejects.toThrow(/mirrors the shops \*, not S1/);
  });
});
