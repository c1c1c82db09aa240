import { readFileSync } from 'node:fs';
import type { Json } from '../../packages/client/src/mirror/jcs';
import { MirrorDatabase } from '../../packages/client/src/mirror/mirror-database';
import { TABLES } from '../../packages/client/src/mirror/schema';
import { loadSqliteDriver } from '../../packages/client/src/mirror/sqlite-driver';
import { serverChecksum } from './support/fake-mirror-api';
import { fakeMirrorPerTest } from './support/mirror-records';
import { mirrorTables, tamper } from './support/mirror-targets';

type ApiRecord = Record<string, Json>;

const TABLE_NAMES = ['sales', 'sale_lines', 'payments', 'cash_movements'];
/** The columns schema 3 added for issue 42's fields (a version 2 file kept them in `extra`). */
const V3_COLUMNS: Record<string, string[]> = {
  sales: ['sold_at_utc'],
  payments: ['paid_at_utc', 'business_date'],
  cash_movements: ['moved_at_utc', 'business_date'],
};
/** The days of addTwelveSales holding records: 5 of sales, 5 of payments, 4 of movements. */
const DAYS_WITH_RECORDS = 14;
/**
 * The days of sales among them: a version names a record's top-level fields and covers a sale's
 * `lines` whole, so a field added to a line moves these days (docs/sync.md, "Digest versions").
 */
const SALE_DAYS = 5;
const DAY_FIELD: Record<string, string> = {
  sales: 'soldAt',
  payments: 'paidAt',
  'cash-movements': 'movedAt',
};

/**
 * A server that adds fields this client's schema does not know (docs/versioning.md: additive
 * within /api/v1.0/) while its digests checksum every field (docs/sync.md): the mirror keeps
 * them in `extra`, so its checksums stay the server's and a copy converges (decision 24.8).
 */
describe('Client: mirror() keeps the fields it does not know (decision 24.8)', () => {
  const fake = fakeMirrorPerTest('mirror-fields-');
  const pass = (options = {}) => fake.pass(options);
  const listCalls = (since: number) =>
    fake.api.paths
      .slice(since)
      .filter((p) => /^\/api\/v1\.0\/(sales|payments|cash-movements)\?/.test(p));

  /** The server starts sending new fields on every record, lines included. */
  const addFields = () => {
    for (const s of fake.api.records.sales) {
      s.foo = `sale ${s.id as string}`;
      for (const l of s.lines as ApiRecord[]) l.foo = { lineNo: l.lineNo, tags: ['a', 1.5, null] };
    }
    for (const p of fake.api.records.payments) p.foo = 12.5;
    for (const m of fake.api.records['cash-movements']) m.foo = null;
  };

  /** The checksum the mirror computes from its file for one day of one resource. */
  async function mirrorChecksum(resource: string, day: string): Promise<string | undefined> {
    const file = await MirrorDatabase.open(fake.into, { readOnly: true, warn: () => undefined });
    try {
      const table = TABLES.find((t) => t.resource === resource);
      const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
      return (await file.rows.localDays(table!, 'S1', day, next.slice(0, 10))).get(day)?.checksum;
    } finally {
      await file.close();
    }
  }

  /** The first column of a query's rows, read from the mirror file behind the mirror's back. */
  async function inspect(sql: string): Promise<unknown[]> {
    const Driver = await loadSqliteDriver();
    const db = new Driver(fake.into, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).pluck().all();
    } finally {
      db.close();
    }
  }
  const extraColumns = async () => {
    const found: string[] = [];
    for (const table of TABLE_NAMES) {
      const names = await inspect(`SELECT name FROM pragma_table_info('${table}')`);
      if (names.includes('extra')) found.push(table);
    }
    return found;
  };

  /**
   * A version 1 file, as the client before decision 24.8 wrote it: no `extra` anywhere, none of
   * schema 3's columns (issue 42's fields) nor its drawer sessions, no digest version recorded.
   */
  async function asVersionOne(): Promise<void> {
    for (const table of TABLE_NAMES) {
      await tamper(fake.into, `ALTER TABLE ${table} DROP COLUMN extra`);
    }
    for (const [table, columns] of Object.entries(V3_COLUMNS)) {
      for (const column of columns) {
        await tamper(fake.into, `ALTER TABLE ${table} DROP COLUMN ${column}`);
      }
    }
    await tamper(fake.into, 'DROP TABLE cash_drawer_sessions');
    await tamper(fake.into, "DELETE FROM mirror_state WHERE key = 'digest_version'");
    await tamper(fake.into, "UPDATE mirror_state SET value = '1' WHERE key = 'schema_version'");
  }

  /** The server's records as a version 1 file upgraded holds them: issue 42's fields NULL. */
  const asUpgradedFromOne = () => {
    const records = fake.api.byId();
    const nulls = (fields: string[]) => (r: ApiRecord) => ({
      ...r,
      ...Object.fromEntries(fields.map((f) => [f, null])),
    });
    return {
      ...records,
      sales: records.sales.map(nulls(['soldAtUtc'])),
      payments: records.payments.map(nulls(['paidAtUtc', 'businessDate'])),
      'cash-movements': records['cash-movements'].map(nulls(['movedAtUtc', 'businessDate'])),
    };
  };

  it('should keep unknown fields of a sale, a line, a payment and a movement, and checksum each day as received', async () => {
    const target = fake.api.records.sales.find((s) => s.id === '3') as ApiRecord;
    target.foo = 'bar';
    (target.lines as ApiRecord[])[1].foo = { nested: [1, 'x', null], é: true };
    fake.api.records.payments[0].foo = 12.5;
    // A field named as an Object.prototype member is a field like any other.
    fake.api.records['cash-movements'][0] = {
      ...fake.api.records['cash-movements'][0],
      ...(JSON.parse('{"__proto__": "p", "constructor": 1}') as ApiRecord),
    };

    const first = await pass();
    expect(first.daysRepaired).toBe(0);
    expect(await mirrorTables(fake.into)).toEqual(fake.api.byId());

    // The raw column: canonical JSON of the unknown fields only, NULL for a record without any.
    expect(await inspect('SELECT extra FROM sales WHERE id IN (1, 3) ORDER BY id')).toEqual([
      null,
      '{"foo":"bar"}',
    ]);
    expect(
      await inspect('SELECT extra FROM sale_lines WHERE sale_id = 3 ORDER BY line_no'),
    ).toEqual([null, '{"foo":{"nested":[1,"x",null],"é":true}}']);

    // Each day's checksum from the file is the one of the records as received, by the service's JCS.
    for (const [resource, records] of Object.entries(fake.api.byId())) {
      if (!DAY_FIELD[resource]) continue; // the drawer sessions have no digest
      const received = JSON.parse(JSON.stringify(records)) as ApiRecord[];
      const days = new Set(received.map((r) => (r[DAY_FIELD[resource]] as string).slice(0, 10)));
      expect(days.size).toBeGreaterThan(3);
      for (const day of days) {
        const ofDay = received.filter((r) => (r[DAY_FIELD[resource]] as string).startsWith(day));
        expect([resource, day, await mirrorChecksum(resource, day)]).toEqual([
          resource,
          day,
          serverChecksum(ofDay),
        ]);
      }
    }
    expect((await pass({ verifyOnly: true })).differing).toEqual([]);

    // A field kept in `extra` is not one of the mirror's digest version (docs/sync.md, "Digest
    // versions"): changed behind its back, no day differs; a field of the version does.
    await tamper(fake.into, `UPDATE sales SET extra = '{"foo":"baz"}' WHERE id = 3`);
    expect((await pass({ verifyOnly: true })).differing).toEqual([]);
    await tamper(fake.into, `UPDATE sales SET status = 'VOIDED' WHERE id = 3`);
    const verify = await pass({ verifyOnly: true });
    expect(verify.differing.map((d) => [d.resource, d.date])).toEqual([['sales', '2026-03-13']]);
  });

  it("should re-read only the sales' days after the server adds fields outside its digest version (their lines are covered whole)", async () => {
    await pass();
    addFields();

    // The field is not in the version the mirror verifies with: no day differs (before digest
    // versions, each day differed once and was re-read, decision 24.8).
    const before = fake.api.paths.length;
    const repair = await pass();
    expect(repair.daysRepaired).toBe(SALE_DAYS);
    expect(repair.differing.every((d) => d.resource === 'sales')).toBe(true);
    expect(listCalls(before)).toHaveLength(SALE_DAYS);
    expect((await pass({ verifyOnly: true })).differing).toEqual([]);
    expect(DAYS_WITH_RECORDS).toBeGreaterThan(SALE_DAYS);
    // Converged: the next reconciliation re-reads nothing.
    const again = fake.api.paths.length;
    expect((await pass()).daysRepaired).toBe(0);
    expect(listCalls(again)).toEqual([]);
  });

  it('should open a version 1 file (no extra column): verify reads it as it is, a pass upgrades it in place', async () => {
    await pass();
    await asVersionOne();
    expect(await extraColumns()).toEqual([]);

    // verify never writes: the file stays version 1, and its days are the server's.
    const bytes = readFileSync(fake.into);
    expect((await pass({ verifyOnly: true })).differing).toEqual([]);
    expect(readFileSync(fake.into)).toEqual(bytes);
    expect(await extraColumns()).toEqual([]);

    // A pass adds the columns to each table, keeps every row, and re-reads nothing: it verifies
    // with digest version 1, which has none of the fields its rows lack (NULL in the new columns).
    const upgrade = await pass();
    expect(upgrade.daysRepaired).toBe(0);
    expect(await extraColumns()).toEqual(TABLE_NAMES);
    expect(await inspect("SELECT value FROM mirror_state WHERE key = 'schema_version'")).toEqual([
      '3',
    ]);
    expect(await mirrorTables(fake.into)).toEqual(asUpgradedFromOne());

    // From then on it verifies like a new file: a field outside its digest version moves nothing.
    addFields();
    expect((await pass()).daysRepaired).toBe(SALE_DAYS);
    expect((await pass({ verifyOnly: true })).differing).toEqual([]);
    expect((await pass()).daysRepaired).toBe(0);
  });

  it("should have verify of a version 1 file name only the days whose sales' lines gained a field (lines are covered whole)", async () => {
    await pass();
    await asVersionOne();
    addFields();
    const verify = await pass({ verifyOnly: true });
    expect(verify.differing.map((d) => d.resource)).toEqual(Array(SALE_DAYS).fill('sales'));
    expect(await extraColumns()).toEqual([]);
  });
});
