import { DynamicModule, Global, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { businessDateIndex, type Source } from '../catalogue/source';

/** An index of sql/recommended-indexes.sql: what it serves, on which table and columns. */
export interface RecommendedIndex {
  name: string;
  table: string;
  columns: readonly string[];
}

/** What the indexes are recommended for: each resource's source, and whether it has a feed. */
export interface IndexedResource {
  source: Source<unknown>;
  feed?: unknown;
}

/**
 * The indexes the reads want beyond the given schema's: a feed's (shop_code, id), which reads
 * one shop in id order, and the business dates' (business-date-range.ts), once per table (a
 * lookup's index is its table's own when that table has its business date).
 */
export function recommendedIndexes(resources: readonly IndexedResource[]): RecommendedIndex[] {
  const feeds = resources
    .filter((resource) => resource.feed !== undefined)
    .map(({ source: { table } }) => ({
      name: `ix_${table}_shop_id`,
      table,
      columns: ['shop_code', 'id'],
    }));
  const byDate = new Map<string, string[]>();
  for (const { source } of resources) {
    const index = businessDateIndex(source);
    const known = index && byDate.get(index.table);
    if (index && (!known || known.length < index.columns.length)) {
      byDate.set(index.table, index.columns);
    }
  }
  const dates = [...byDate].map(([table, columns]) => ({
    name: `ix_${table}_shop_business_date`,
    table,
    columns,
  }));
  return [...feeds, ...dates];
}

interface IndexColumn {
  t: string;
  i: string;
  c: string;
}

/**
 * The recommended indexes no index of the database serves, from information_schema
 * (MySQL/MariaDB). An index serves one whose columns begin its own, InnoDB's implicit primary
 * key (`id`, on these tables) appended: (shop_code) alone serves (shop_code, id).
 */
async function unserved(db: DataSource, wanted: RecommendedIndex[]): Promise<RecommendedIndex[]> {
  const tables = [...new Set(wanted.map((index) => index.table))];
  const rows: IndexColumn[] = await db.query(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, LOWER(COLUMN_NAME) AS c FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${tables.map(() => '?').join(', ')})
      ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    tables,
  );
  const existing = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row.t}\u0000${row.i}`;
    existing.set(key, [...(existing.get(key) ?? []), row.c]);
  }
  const serves = (index: RecommendedIndex, [key, columns]: [string, string[]]): boolean =>
    key.startsWith(`${index.table}\u0000`) &&
    index.columns.every((column, i) => [...columns, 'id'][i] === column);
  return wanted.filter((index) => ![...existing].some((entry) => serves(index, entry)));
}

/**
 * Checks once at start-up (MySQL/MariaDB) that the tables have the indexes of
 * sql/recommended-indexes.sql, and warns when one is missing: the reads work without them, but a
 * feed page of one shop then scans past the other shops' rows, and a read by business date past
 * the other dates' (docs/performance.md). The readiness details repeat the answer. SQLite (the
 * demo) has no such index and needs none at its size.
 */
export class RecommendedIndexes implements OnApplicationBootstrap {
  private readonly logger = new Logger('RecommendedIndexes');
  /** The names of the indexes found missing; null before the check, on SQLite, or when it failed. */
  missing: string[] | null = null;

  constructor(
    private readonly primary: DataSource,
    private readonly wanted: RecommendedIndex[],
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.primary.options.type !== 'mysql' || this.wanted.length === 0) return;
    let missing: RecommendedIndex[];
    try {
      missing = await unserved(this.primary, this.wanted);
    } catch (error) {
      // Start-up goes on: a database that is down now is the readiness check's business.
      this.logger.debug(`Could not look for the recommended indexes: ${String(error)}`);
      return;
    }
    this.missing = missing.map((index) => index.name);
    if (missing.length > 0) {
      const named = missing.map((index) => `${index.table} (${index.columns.join(', ')})`);
      this.logger.warn(
        `No index on ${named.join(', ')}: the feeds and the reads by business date work, but a ` +
          "page of one shop scans past the other shops' rows. The DBA can add them with " +
          'sql/recommended-indexes.sql.',
      );
    }
  }
}

/**
 * RecommendedIndexes for the catalogue's resources (the root passes them, app.module.ts), for
 * every module (the readiness details).
 */
@Global()
@Module({})
export class RecommendedIndexesModule {
  static forRoot(resources: readonly IndexedResource[]): DynamicModule {
    const wanted = recommendedIndexes(resources);
    return {
      module: RecommendedIndexesModule,
      providers: [
        {
          provide: RecommendedIndexes,
          inject: [getDataSourceToken()],
          useFactory: (primary: DataSource) => new RecommendedIndexes(primary, wanted),
        },
      ],
      exports: [RecommendedIndexes],
    };
  }
}
