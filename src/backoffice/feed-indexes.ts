import { DynamicModule, Global, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Source } from './source';

interface IndexColumn {
  t: string;
  i: string;
  c: string;
}

/**
 * Whether a table has an index that reads one shop in id order: (shop_code, id), or (shop_code)
 * alone, which InnoDB completes with the primary key.
 */
function servesFeed(columns: string[]): boolean {
  return columns[0] === 'shop_code' && (columns.length === 1 || columns[1] === 'id');
}

/** The feed tables without such an index, from information_schema (MySQL/MariaDB). */
async function tablesWithoutFeedIndex(db: DataSource, tables: string[]): Promise<string[]> {
  const rows: IndexColumn[] = await db.query(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, LOWER(COLUMN_NAME) AS c FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${tables.map(() => '?').join(', ')})
      ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    tables,
  );
  const indexes = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row.t}\u0000${row.i}`;
    indexes.set(key, [...(indexes.get(key) ?? []), row.c]);
  }
  const served = new Set(
    [...indexes]
      .filter(([, columns]) => servesFeed(columns))
      .map(([key]) => key.split('\u0000')[0]),
  );
  return tables.filter((table) => !served.has(table));
}

/**
 * Checks once at start-up (MySQL/MariaDB) that the feed tables have the indexes of
 * sql/recommended-indexes.sql, and warns when one is missing: the feeds work without them, but a
 * page of one shop then scans past the other shops' rows (docs/performance.md). The readiness
 * details repeat the answer. SQLite (the demo) has no such index and needs none at its size.
 */
export class FeedIndexes implements OnApplicationBootstrap {
  private readonly logger = new Logger('FeedIndexes');
  /** The tables found without the index; null before the check, on SQLite, or when it failed. */
  missing: string[] | null = null;

  constructor(
    private readonly primary: DataSource,
    /** The tables of the feeds, each read per shop in id order. */
    private readonly tables: string[],
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.primary.options.type !== 'mysql') return;
    try {
      this.missing = await tablesWithoutFeedIndex(this.primary, this.tables);
    } catch (error) {
      // Start-up goes on: a database that is down now is the readiness check's business.
      this.logger.debug(`Could not look for the feed indexes: ${String(error)}`);
      return;
    }
    if (this.missing.length > 0) {
      this.logger.warn(
        `The feeds read ${this.missing.join(', ')} without an index on (shop_code, id): they work, ` +
          'but a page of one shop scans past the rows of the others. The DBA can add them with ' +
          'sql/recommended-indexes.sql.',
      );
    }
  }
}

/**
 * FeedIndexes for the sources the feeds read (the root lists them, app.module.ts), for every
 * module (the readiness details).
 */
@Global()
@Module({})
export class FeedTablesModule {
  static forRoot(feeds: ReadonlyArray<Source<unknown>>): DynamicModule {
    const tables = [...new Set(feeds.map((source) => source.table))];
    return {
      module: FeedTablesModule,
      providers: [
        {
          provide: FeedIndexes,
          inject: [getDataSourceToken()],
          useFactory: (primary: DataSource) => new FeedIndexes(primary, tables),
        },
      ],
      exports: [FeedIndexes],
    };
  }
}
