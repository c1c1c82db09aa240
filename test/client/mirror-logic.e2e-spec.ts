import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MirrorFileError, NetworkError, PosReadClient } from '../../packages/client/src/index';
import { loadSqliteDriver } from '../../packages/client/src/mirror/sqlite-driver';
import { fakeMirrorPerTest, line, NOW, sale } from './support/mirror-records';
import { mirrorTables, tamper } from './support/mirror-tables';

describe('Client: mirror() logic against the contract, in memory (issue 25)', () => {
  const fake = fakeMirrorPerTest('mirror-logic-');
  const pass = (options = {}) => fake.pass(options);
  const api_ = () => fake.api.byId();

  it('should copy every record by the feeds, then find nothing to repair', async () => {
    const summary = await pass();
    expect(await mirrorTables(fake.into)).toEqual(api_());
    expect(summary.rows).toEqual({ sales: 12, sale_lines: 24, payments: 12, cash_movements: 4 });
    expect(summary.daysRepaired).toBe(0);
    expect(summary.daysChecked).toBe(3 * 36);
    expect((await pass({ verifyOnly: true })).differing).toEqual([]);
  });

  it('should take late uploads from the feed and voids, changed lines and deletes from the digests', async () => {
    await pass();
    fake.api.add('sales', sale(40, '2026-03-01T08:00:00'));
    fake.api.records.sales[2].status = 'VOIDED';
    fake.api.records.sales[4].lines = [line(1, '9.99')];
    fake.api.records['cash-movements'].splice(1, 1);
    fake.api.records.payments[0].reference = 'AUTH-1';
    const before = fake.api.paths.length;
    const summary = await pass();
    expect(await mirrorTables(fake.into)).toEqual(api_());
    expect(summary.daysRepaired).toBe(4);
    // Only the four differing days were listed again.
    const lists = fake.api.paths.slice(before).filter((p) => /^\/api\/v1\.0\/[a-z-]+\?/.test(p));
    expect(lists).toHaveLength(4);
  });

  it('should find a row changed in the file behind its back, and repair it on the next pass', async () => {
    await pass();
    await tamper(fake.into, "UPDATE sales SET total_gross = '0.01' WHERE id = 3");
    await tamper(fake.into, 'DELETE FROM sale_lines WHERE sale_id = 5 AND line_no = 2');
    const verify = await pass({ verifyOnly: true });
    expect(verify.differing.map((d) => [d.resource, d.date])).toEqual(
      [
        ['sales', '2026-03-13'],
        ['sales', '2026-03-10'],
      ].sort((a, b) => a[1].localeCompare(b[1])),
    );
    expect(await mirrorTables(fake.into)).not.toEqual(api_());
    await pass();
    expect(await mirrorTables(fake.into)).toEqual(api_());
  });

  it('should resume after a failure between pages without losing or doubling a row', async () => {
    let feedCalls = 0;
    const failing: typeof fetch = (input, init) => {
      if ((input as string).includes('/feed') && ++feedCalls === 2) throw new TypeError('cut');
      return fake.api.fetch(input, init);
    };
    const broken = new PosReadClient({
      baseUrl: 'https://fake',
      username: 'u',
      password: 'p',
      fetch: failing,
      retry: { maxRetries: 0 },
    });
    await expect(broken.mirror({ into: fake.into, limit: 5, now: () => NOW })).rejects.toThrow(
      NetworkError,
    );
    expect((await mirrorTables(fake.into)).sales).toHaveLength(5);
    await pass();
    expect(await mirrorTables(fake.into)).toEqual(api_());
  });

  it('should refuse a file that is not its own, and leave it as it was', async () => {
    const text = path.join(fake.dir, 'notes.sqlite');
    writeFileSync(
      text,
      'not a database at all, just text that is long enough to be read\n'.repeat(50),
    );
    const before = readFileSync(text);
    await expect(pass({ into: text })).rejects.toThrow(/not a SQLite database/);
    expect(readFileSync(text)).toEqual(before);

    const foreign = path.join(fake.dir, 'erp.sqlite');
    const Driver = await loadSqliteDriver();
    const db = new Driver(foreign);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY); INSERT INTO invoices VALUES (1);');
    db.close();
    const foreignBefore = readFileSync(foreign);
    await expect(pass({ into: foreign })).rejects.toThrow(MirrorFileError);
    await expect(pass({ into: foreign })).rejects.toThrow(/not a pos-read mirror.*invoices/);
    expect(readFileSync(foreign)).toEqual(foreignBefore);

    await pass();
    await tamper(fake.into, "UPDATE mirror_state SET value = '3' WHERE key = 'schema_version'");
    await expect(pass()).rejects.toThrow(/newer pos-read \(mirror version 3; this one knows 2/);
    await tamper(fake.into, "UPDATE mirror_state SET value = '2' WHERE key = 'schema_version'");
    await expect(pass({ shops: ['S1'] })).rejects.toThrow(/mirrors the shops \*, not S1/);

    await tamper(fake.into, "UPDATE mirror_state SET value = '0' WHERE key = 'schema_version'");
    await expect(pass()).rejects.toThrow(/is a damaged mirror \(no schema_version\)/);
    await tamper(fake.into, "UPDATE mirror_state SET value = '2' WHERE key = 'schema_version'");
    await tamper(fake.into, 'DROP TABLE sale_lines');
    await expect(pass()).rejects.toThrow(/is a damaged mirror \(no sale_lines\)/);
  });
});
