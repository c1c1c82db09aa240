import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  MirrorFileError,
  NetworkError,
  PosReadClient,
  UnknownShopError,
} from '../../packages/client/src/index';
import { requires } from '../support/requirements';
import { fakeMirrorPerTest, line, NOW, sale } from './support/mirror-records';
import { MIRROR_TARGETS, mirrorTables, storeOf, tamper } from './support/mirror-targets';

for (const target of MIRROR_TARGETS) {
  /** mirror_state's key column, quoted (`key` is a reserved word of MySQL). */
  const KEY = target.kind === 'mysql' ? '`key`' : '"key"';

  requires(...target.requires).describe(
    `Client: mirror() logic against the contract, in memory (issues 25, 43) [${target.kind}]`,
    () => {
      const fake = fakeMirrorPerTest('mirror-logic-', target);
      const pass = (options = {}) => fake.pass(options);
      const api_ = () => fake.api.byId();

      it('should copy every record by the feeds, then find nothing to repair', async () => {
        const summary = await pass();
        expect(await mirrorTables(fake.into)).toEqual(api_());
        expect(summary.rows).toEqual({
          sales: 12,
          sale_lines: 24,
          payments: 12,
          cash_movements: 4,
        });
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
        const lists = fake.api.paths
          .slice(before)
          .filter((p) => /^\/api\/v1\.0\/[a-z-]+\?/.test(p));
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

      it('should refuse what is not its own (a text file, the tables of another program), and leave it as it was', async () => {
        if (target.kind === 'sqlite') {
          const text = path.join(fake.dir, 'notes.sqlite');
          writeFileSync(
            text,
            'not a database at all, just text that is long enough to be read\n'.repeat(50),
          );
          const before = readFileSync(text);
          await expect(pass({ into: text })).rejects.toThrow(/not a SQLite database/);
          expect(readFileSync(text)).toEqual(before);
        }
        const erp = await target.create(fake.dir, 'erp');
        try {
          await tamper(erp.into, 'CREATE TABLE invoices (id INTEGER PRIMARY KEY, total TEXT)');
          await tamper(erp.into, "INSERT INTO invoices VALUES (1, '12.50')");
          const contents = async () => {
            const store = await storeOf(erp.into, true);
            try {
              return {
                tables: await store.tables(),
                rows: await store.all('SELECT * FROM invoices'),
              };
            } finally {
              await store.close();
            }
          };
          const before = await contents();
          await expect(pass({ into: erp.into })).rejects.toThrow(MirrorFileError);
          await expect(pass({ into: erp.into })).rejects.toThrow(/not a pos-read mirror.*invoices/);
          expect(await contents()).toEqual(before);
          expect(before.tables).toEqual(['invoices']);
        } finally {
          await erp.drop();
        }
      });

      it('should refuse a newer mirror, another copy and a damaged one', async () => {
        const version = (v: string) =>
          tamper(
            fake.into,
            `UPDATE mirror_state SET value = '${v}' WHERE ${KEY} = 'schema_version'`,
          );
        await pass();
        await version('3');
        await expect(pass()).rejects.toThrow(/newer pos-read \(mirror version 3; this one knows 2/);
        await version('2');
        await expect(pass({ shops: ['S1'] })).rejects.toThrow(
          /mirrors every shop of the token \(recorded in it\); --shop S1 narrows it\. Leave out --shop/,
        );
        const otherService = new PosReadClient({
          baseUrl: 'https://other',
          username: 'u',
          password: 'p',
          fetch: fake.api.fetch,
        });
        await expect(otherService.mirror({ into: fake.into, now: () => NOW })).rejects.toThrow(
          /mirrors https:\/\/fake, not https:\/\/other; nothing was written/,
        );
        await version('0');
        await expect(pass()).rejects.toThrow(/is a damaged mirror \(no schema_version\)/);
        await version('2');
        await tamper(fake.into, 'DROP TABLE sale_lines');
        await expect(pass()).rejects.toThrow(/is a damaged mirror \(no sale_lines\)/);
      });

      it('should finish a creation killed half-way (MySQL commits each CREATE), and take an empty state table as new', async () => {
        await pass();
        for (const table of ['sale_lines', 'sales', 'payments'])
          await tamper(fake.into, `DROP TABLE ${table}`);
        await tamper(
          fake.into,
          `DELETE FROM mirror_state WHERE ${KEY} <> 'format' AND ${KEY} <> 'baseUrl' AND ${KEY} <> 'shops'`,
        );
        await expect(pass({ verifyOnly: true })).rejects.toThrow(
          /holds no mirror \(its creation did not finish\)/,
        );
        await pass();
        expect(await mirrorTables(fake.into)).toEqual(api_());
        const empty = await target.create(fake.dir, 'empty');
        try {
          await tamper(
            empty.into,
            `CREATE TABLE mirror_state (${KEY} VARCHAR(255) PRIMARY KEY, value TEXT NOT NULL)`,
          );
          await pass({ into: empty.into });
          expect(await mirrorTables(empty.into)).toEqual(api_());
        } finally {
          await empty.drop();
        }
      });

      it('should keep mirroring the shops it recorded, say how a different --shop list differs, and refuse a shop the token lacks', async () => {
        fake.api.shops.push({
          code: 'S2',
          name: 'Two',
          timeZone: 'Europe/Madrid',
          currency: 'EUR',
        });
        fake.api.add('sales', { ...sale(50, '2026-03-12T10:00:00'), shopCode: 'S2' });
        await expect(pass({ shops: ['s1'] })).rejects.toThrow(
          /the token may not read the shop s1: its shops are S1, S2 \(codes are compared exactly/,
        );
        await expect(pass({ shops: ['s1'] })).rejects.toThrow(UnknownShopError);
        await pass({ shops: ['S1'] });
        const before = fake.api.paths.length;
        const verify = await pass({ verifyOnly: true });
        expect(verify.differing).toEqual([]);
        const digests = fake.api.paths.slice(before).filter((p) => p.includes('/digest?'));
        expect(digests.length).toBe(3);
        expect(digests.every((p) => p.includes('ShopCode=S1'))).toBe(true);
        await pass();
        expect((await mirrorTables(fake.into)).sales).toHaveLength(12);
        await expect(pass({ shops: ['S1', 'S2'] })).rejects.toThrow(
          /mirrors the shops S1 \(recorded in it\); --shop adds S2\. Leave out --shop/,
        );
        await expect(pass({ shops: ['S2'] })).rejects.toThrow(
          /mirrors the shops S1 \(recorded in it\); --shop adds S2 and leaves out S1\./,
        );
      });

      it('should check and repair a closed period beyond the window, 92 days a digest request', async () => {
        fake.api.add('sales', sale(60, '2025-12-15T10:00:00'));
        await pass();
        fake.api.records.sales.find((s) => s.id === '60')!.status = 'VOIDED';
        expect((await pass()).daysRepaired).toBe(0);
        const period = { from: '2025-12-01', to: '2026-03-20' };
        const before = fake.api.paths.length;
        const verify = await pass({ verifyOnly: true, period });
        expect(verify.differing.map((d) => [d.resource, d.date])).toEqual([
          ['sales', '2025-12-15'],
        ]);
        expect(verify.daysChecked).toBe(3 * 109);
        const digests = fake.api.paths
          .slice(before)
          .filter((p) => p.startsWith('/api/v1.0/sales/digest'));
        expect(digests).toEqual([
          expect.stringContaining('From=2025-12-01&To=2026-03-03'),
          expect.stringContaining('From=2026-03-03&To=2026-03-20'),
        ]);
        expect((await pass({ period })).daysRepaired).toBe(1);
        expect(await mirrorTables(fake.into)).toEqual(api_());
        await expect(pass({ period: { from: '2026-03-20', to: '2026-03-01' } })).rejects.toThrow(
          RangeError,
        );
      });
    },
  );
}
