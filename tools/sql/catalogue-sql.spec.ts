import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defineSource, derived, sql, withAttached } from '../../src/catalogue/source';
import { CATALOGUE } from '../../src/app.catalogue';
import { defineResource } from '../../src/catalogue/resource';
import {
  BEGIN,
  cataloguedTables,
  END,
  GENERATED_SCRIPTS,
  generatedBlock,
  regenerate,
} from './catalogue-sql';

const ROOT = path.join(__dirname, '../..');

/** A resource over a table the back office does not have: what a new resource declares. */
function plantedResource() {
  const source = withAttached(
    defineSource({
      table: 'pos_refunds',
      columns: {
        id: sql('BIGINT UNSIGNED'),
        shop_code: sql('VARCHAR(16)'),
        refunded_at: sql('DATETIME(3)'),
      },
      derived: {
        time_zone: derived(sql('VARCHAR(64)'), {
          kind: 'lookup',
          table: 'bo_shops',
          key: 'code',
          by: 'shop_code',
          column: 'time_zone',
        }),
      },
      time: 'refunded_at',
    }),
    {
      as: 'reasons',
      table: 'pos_refund_reasons',
      parentId: 'refund_id',
      columns: { refund_id: sql('BIGINT UNSIGNED'), reason: sql('VARCHAR(64)') },
      orderBy: [],
    },
  );
  const text = { summary: 'x', description: 'x' };
  return defineResource({
    route: 'refunds',
    tag: { name: 'Refunds', description: 'x' },
    source,
    record: class Refund {
      id = '';
    },
    example: { id: '1' },
    toRecord: (row) => ({ id: row.id }),
    datedBy: 'id',
    list: text,
    feed: text,
    digest: {},
  });
}

describe('the SQL scripts generated from the catalogue (issue 41)', () => {
  it.each(GENERATED_SCRIPTS.map((s) => [s.file, s.account] as const))(
    'should have committed %s as npm run sql:write writes it',
    (file, account) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect(text).toContain(BEGIN);
      expect(regenerate(text, account)).toBe(text);
    },
  );

  it("should list the tables the resources read: their own, their attachments' and lookups'", () => {
    // The real tables by the declarations, not by name: only a *.source.ts names them (the wall).
    const declared = CATALOGUE.flatMap(({ source }) => [
      source.table,
      ...source.attached.map((a) => a.table),
    ]);
    expect(cataloguedTables()).toEqual(expect.arrayContaining(declared));
    expect(cataloguedTables([plantedResource()] as never)).toEqual([
      'pos_refunds',
      'pos_refund_reasons',
      'bo_shops',
    ]);
  });

  it('should grant a new resource its tables and recommend its feed index, not what is granted by hand', () => {
    const catalogue = [...CATALOGUE, plantedResource()] as never;
    const script = readFileSync(path.join(ROOT, 'sql/least-privilege.sql'), 'utf8');
    const grants = generatedBlock(script, "'pos_api'@'%'", catalogue).split('\n');
    expect(grants).toContain("GRANT SELECT ON pos_refunds TO 'pos_api'@'%';");
    expect(grants).toContain("GRANT SELECT ON pos_refund_reasons TO 'pos_api'@'%';");
    // bo_shops is the sign-in's, granted by hand above the block: once is enough.
    expect(grants.filter((line) => line.includes(' bo_shops '))).toEqual([]);
    expect([grants[0], grants.at(-1)]).toEqual([BEGIN, END]);
    const indexes = generatedBlock('', null, catalogue).split('\n');
    expect(indexes).toContain(
      'CREATE INDEX ix_pos_refunds_shop_id ON pos_refunds (shop_code, id) ALGORITHM=INPLACE LOCK=NONE;',
    );
    // A list-only resource (the drawer sessions) reads no feed: no index line of its own.
    expect(indexes.filter((line) => line.includes('_shop_id '))).toHaveLength(
      CATALOGUE.filter((r) => r.feed !== undefined).length + 1,
    );
  });

  it("should recommend the business dates' index once per table: the sales', the payments' through them", () => {
    const indexes = generatedBlock('', null).split('\n');
    // The tables by the declarations, not by name (only a *.source.ts names them: the wall).
    const { table, time } = CATALOGUE.find((r) => r.route === 'sales')!.source;
    expect(indexes.filter((line) => line.includes('_shop_business_date '))).toEqual([
      `CREATE INDEX ix_${table}_shop_business_date ON ${table} (shop_code, business_date, ${time}) ALGORITHM=INPLACE LOCK=NONE;`,
    ]);
  });

  it('should refuse a script without its markers rather than write it somewhere', () => {
    expect(() => regenerate('GRANT SELECT ON x TO y;\n', "'pos_api'@'%'")).toThrow(/no "-- BEGIN/);
  });
});
