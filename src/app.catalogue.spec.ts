import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { sourceRows } from './sync/digest/testing/source-rows';
import { type Columns, nullable, sql } from './catalogue/source';
import { CATALOGUE } from './app.catalogue';
import { canonicalRecord } from './sync/digest/day-checksums';
import { DIGEST_VERSIONS, NEWEST_DIGEST_VERSION } from './catalogue/digest-versions';
import { splitSqlStatements } from './database/backoffice-schema';
import { sqliteStatements } from './database/sqlite-schema';
import { expectCanonicalEqualsList } from './sync/digest/testing/canonical-record.check';
import type { AnyResource } from './catalogue/resource';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** The back-office schema as given (never changed by the project), beside the repository. */
/**
 * The back-office schema as given, in `shared/` beside the repository: looked for from the
 * repository's folder upwards, since Stryker runs the specs in a sandbox inside the repository.
 */
function givenSchema(): string {
  for (let dir = ROOT; ; dir = path.dirname(dir)) {
    const file = path.join(dir, '..', 'shared/backoffice/schema.sql');
    if (existsSync(file)) return file;
    if (path.dirname(dir) === dir) return path.resolve(ROOT, '../shared/backoffice/schema.sql');
  }
}
const GIVEN = givenSchema();
const MYSQL_COPY = 'src/database/schema/backoffice.mysql.sql';

interface SchemaColumn {
  type: string;
  nullable: boolean;
}

/** The columns of each CREATE TABLE of a schema file: `table → column → type, nullability`. */
function schemaColumns(sql: string): Map<string, Map<string, SchemaColumn>> {
  const tables = new Map<string, Map<string, SchemaColumn>>();
  for (const [, table, body] of sql.matchAll(
    /CREATE TABLE(?: IF NOT EXISTS)? (\w+) \(([\s\S]*?)\n\)/g,
  )) {
    const columns = new Map<string, SchemaColumn>();
    for (const line of body.split('\n')) {
      const m = /^\s+([a-z_]+)\s+([A-Z]+(?: UNSIGNED)?(?:\([\d,]+\))?(?: UNSIGNED)?)(.*)$/.exec(
        line.replace(/--.*$/, ''),
      );
      if (!m || ['PRIMARY', 'KEY', 'UNIQUE', 'CONSTRAINT'].includes(m[1].toUpperCase())) continue;
      columns.set(m[1], { type: m[2], nullable: !/NOT NULL|PRIMARY KEY/.test(m[3]) });
    }
    tables.set(table, columns);
  }
  return tables;
}

/** Every table a resource reads, with the columns it declares (its own and its attachments'). */
const DECLARED: Array<{ table: string; columns: Columns }> = CATALOGUE.flatMap(({ source }) => [
  { table: source.table, columns: source.columns },
  ...source.attached.map(({ table, columns }) => ({ table, columns })),
  ...(source.session ? [{ table: source.table, columns: source.session.columns }] : []),
]);

const isNullable = (kind: string) => kind.startsWith('nullable');
const shown = (type: string | undefined, isNull: boolean) =>
  `${type} ${isNull ? 'NULL' : 'NOT NULL'}`;

/**
 * What differs between the declared columns and a schema file: a column missing, or (with
 * `types`) of another SQL type, or of another nullability. The SQLite copy's types are SQLite's
 * affinities, so only presence and nullability are compared there.
 */
function mismatches(
  declared: ReadonlyArray<{ table: string; columns: Columns }>,
  schema: Map<string, Map<string, SchemaColumn>>,
  types: boolean,
): string[] {
  const found: string[] = [];
  for (const { table, columns } of declared) {
    for (const [name, column] of Object.entries(columns)) {
      const declaredAs = shown(column.sqlType, isNullable(column.kind));
      const actual = schema.get(table)?.get(name);
      if (!actual) found.push(`${table}.${name}: declared ${declaredAs}, not in the schema`);
      else if (
        actual.nullable !== isNullable(column.kind) ||
        (types && actual.type !== column.sqlType)
      ) {
        const has = types ? shown(actual.type, actual.nullable) : shown('', actual.nullable).trim();
        found.push(`${table}.${name}: declared ${declaredAs}, the schema has ${has}`);
      }
    }
  }
  return found;
}

describe('CATALOGUE', () => {
  const resources: readonly AnyResource[] = CATALOGUE;
  for (const resource of resources.filter((r) => r.digest)) {
    it(`should hash for the ${resource.route} digest exactly the RFC 8785 form of the list's record`, () => {
      expectCanonicalEqualsList(sourceRows(resource.source), resource.toRecord, (row) =>
        canonicalRecord(resource.toRecord(row)),
      );
    });
  }

  describe('against the back-office schema', () => {
    const mysql = schemaColumns(read(MYSQL_COPY));
    const sqlite = schemaColumns(
      sqliteStatements(splitSqlStatements(read(MYSQL_COPY))).join(';\n'),
    );

    it('should declare every column a resource reads with its type and nullability there', () => {
      expect(mismatches(DECLARED, mysql, true)).toEqual([]);
    });

    it('should find every declared column in the SQLite copy, with the same nullability', () => {
      expect(mismatches(DECLARED, sqlite, false)).toEqual([]);
    });

    it('should name a column missing from the schema, or of another type or nullability', () => {
      const planted = [
        {
          table: 'pos_payments',
          columns: {
            amount: sql('DECIMAL(12,2)'),
            reference: sql('VARCHAR(64)'),
            no_such_column: nullable('VARCHAR(16)'),
          },
        },
      ];
      expect(mismatches(planted, mysql, true)).toEqual([
        'pos_payments.amount: declared DECIMAL(12,2) NOT NULL, the schema has DECIMAL(15,2) NOT NULL',
        'pos_payments.reference: declared VARCHAR(64) NOT NULL, the schema has VARCHAR(64) NULL',
        'pos_payments.no_such_column: declared VARCHAR(16) NULL, not in the schema',
      ]);
    });

    it("should find each resource's time and arrival columns in its table", () => {
      for (const { source } of CATALOGUE) {
        for (const column of [source.time, source.arrivedAt].filter(Boolean)) {
          expect([source.table, mysql.get(source.table)?.has(column!)]).toEqual([
            source.table,
            true,
          ]);
        }
      }
    });

    it("should name, for each session-dated column, its table's (shop_code, time, id) index as the schema declares it", () => {
      const indexes = new Map(
        [...read(MYSQL_COPY).matchAll(/CREATE TABLE (\w+) \(([\s\S]*?)\n\)/g)].flatMap(
          ([, table, body]) =>
            [...body.matchAll(/^\s+KEY (\w+) \(([^)]*)\)/gm)].map(
              ([, name, columns]) => [`${table}.${name}`, columns] as const,
            ),
        ),
      );
      const rules = CATALOGUE.flatMap(({ source }) =>
        Object.values(source.derived).flatMap((c) =>
          c.derivation?.kind === 'sessionDate' ? [{ source, index: c.derivation.index }] : [],
        ),
      );
      expect(rules.length).toBeGreaterThan(0);
      for (const { source, index } of rules) {
        expect([index, indexes.get(`${source.table}.${index}`)]).toEqual([
          index,
          `shop_code, ${source.time}, id`,
        ]);
      }
    });

    const given = existsSync(GIVEN);
    if (!given && process.env.CI !== 'true') {
      console.warn(`skipped: ${GIVEN} is not beside the repository (CI always has it)`);
    }
    (given || process.env.CI === 'true' ? it : it.skip)(
      "should keep the project's MySQL copy byte for byte the given back-office schema",
      () => {
        expect(read(MYSQL_COPY)).toBe(readFileSync(GIVEN, 'utf8'));
      },
    );
  });

  describe('grants and indexes', () => {
    const tables = [...new Set(DECLARED.map((d) => d.table))];

    it.each(['sql/least-privilege.sql', 'sql/least-privilege-replica.sql'])(
      'should grant SELECT on every table a resource reads in %s',
      (file) => {
        const text = read(file);
        for (const table of tables) {
          expect([table, new RegExp(`GRANT SELECT[^;]* ON ${table} TO`).test(text)]).toEqual([
            table,
            true,
          ]);
        }
      },
    );

    it("should recommend each resource's (shop_code, id) feed index", () => {
      const text = read('sql/recommended-indexes.sql');
      for (const { source } of CATALOGUE) {
        expect([source.table, text.includes(`ON ${source.table} (shop_code, id)`)]).toEqual([
          source.table,
          true,
        ]);
      }
    });

    it("should find each resource's (shop_code, time, id) list index in the schema", () => {
      const text = read(MYSQL_COPY);
      for (const { source } of CATALOGUE) {
        expect([source.table, text.includes(`(shop_code, ${source.time}, id)`)]).toEqual([
          source.table,
          true,
        ]);
      }
    });
  });
});

describe('the digest versions of the catalogue', () => {
  const withDigest = CATALOGUE.flatMap((resource) =>
    resource.digest ? [[resource.route, resource.digest.fields, resource.record] as const] : [],
  );

  it.each(withDigest)(
    "should make %s's newest digest version every field of its record, and no version name another",
    (_route, fields, record) => {
      // The record's schema (its documented properties), not its example: defineResource reads
      // the fields off the example, so an example missing a field would drop it from the digests.
      const documented = Reflect.getMetadata(
        'swagger/apiModelPropertiesArray',
        record.prototype as object,
      ) as string[];
      const keys = documented.map((property) => property.replace(/^:/, '')).sort();
      expect([...fields[NEWEST_DIGEST_VERSION]].sort()).toEqual(keys);
      for (const version of DIGEST_VERSIONS) {
        expect(fields[version].filter((field) => !keys.includes(field))).toEqual([]);
      }
    },
  );

  it.each(withDigest)(
    "should carry every field of %s's digest versions forward into the next one",
    (_route, fields) => {
      for (const [older, newer] of DIGEST_VERSIONS.slice(1).map((v, i) => [
        DIGEST_VERSIONS[i],
        v,
      ])) {
        expect(fields[older].filter((field) => !fields[newer].includes(field))).toEqual([]);
      }
    },
  );

  it('should keep version 1 as the records were before issue 42: without business dates of payments and movements, or instants', () => {
    const added: Record<string, string[]> = {
      sales: ['soldAtUtc'],
      payments: ['paidAtUtc', 'businessDate'],
      'cash-movements': ['movedAtUtc', 'businessDate'],
    };
    for (const [route, fields] of withDigest) {
      expect([...fields[1]].sort()).toEqual(
        fields[2].filter((field) => !(added[route] ?? []).includes(field)).sort(),
      );
    }
  });
});
