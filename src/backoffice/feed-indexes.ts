import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CASH_MOVEMENTS } from './tables/cash-movements.table';
import { PAYMENTS } from './tables/payments.table';
import { SALE_ARRIVALS } from './tables/sales.table';

/** The tables of the feeds, each read per shop in id order. */
const FEED_TABLES = [SALE_ARRIVALS.table, PAYMENTS.table, CASH_MOVEMENTS.table];

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
async function tablesWithoutFeedIndex(db: DataSource): Promise<string[]> {
  const rows: IndexColumn[] = await db.query(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, LOWER(COLUMN_NAME) AS c FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?, ?) ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    FEED_TABLES,
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
  return FEED_TABLES.filter((table) => !served.has(table));
}

/**
 * Checks once at start-up (MySQL/MariaDB) that the feed tables have the indexes of
 * sql/recommended-indexes.sql, and warns when one is missing: the feeds work without them, but a
 * page of one shop then scans past the other shops' rows (docs/performance.md). The readiness
 * details repeat the answer. SQLite (the demo) has no such index and needs none at its size.
 */
@Injectable()
export class FeedIndexes implements OnApplicationBootstrap {
  private readonly logger = new Logger('FeedIndexes');
  /** The tables found without the index; null before the check, on SQLite, or when it failed. */
  missing: string[] | null = null;

  constructor(@InjectDataSource() private readonly primary: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.primary.options.type !== 'mysql') return;
    try {
      this.missing = await tablesWithoutFeedIndex(this.primary);
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
