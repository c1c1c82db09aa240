/** The data the benchmark runs against, made with the project's generator (tools/seed). */
export interface DatasetPlan {
  /** Shops SHOP001.. (all granted to the benchmark's user). */
  shops: number;
  /** Business days from startDate. */
  days: number;
  salesPerDay: number;
  startDate: string;
  seed: number;
  /** Fewer sales than this and the database is not "seeded" (it is seeded when it has none). */
  minSales: number;
  /** Position (0-based, in (sold_at, id) order over every shop) of the row the deep page follows. */
  deepRow: number | 'middle';
}

/** About 1,050,000 sales over one year in 4 shops, with ~3 lines each, payments, cash movements. */
export const FULL_DATASET: DatasetPlan = {
  shops: 4,
  days: 365,
  salesPerDay: 720,
  startDate: '2026-01-01',
  seed: 42,
  minSales: 1_000_000,
  deepRow: 500_001,
};

/**
 * The feed's dataset (`--feed`): about 1,100,000 sales over 100 shops, so one shop is 1% of each
 * table, as in a chain, and a page of one shop read without a per-shop index in id order shows.
 */
export const FEED_DATASET: DatasetPlan = {
  shops: 100,
  days: 110,
  salesPerDay: 100,
  startDate: '2026-01-01',
  seed: 14,
  minSales: 1_000_000,
  deepRow: 'middle',
};

/** A few thousand sales: enough for every scenario to run, seeded in seconds (CI). */
export const QUICK_DATASET: DatasetPlan = {
  shops: 2,
  days: 14,
  salesPerDay: 150,
  startDate: '2026-01-01',
  seed: 42,
  minSales: 2_000,
  deepRow: 'middle',
};

/**
 * The binary log's dataset (`--binlog`), in a MariaDB of the bench's own: two shops of the full
 * dataset's size for 100 days (~144,000 sales), so the 92-day digest reads what it reads there.
 */
export const BINLOG_DATASET: DatasetPlan = {
  shops: 2,
  days: 100,
  salesPerDay: 720,
  startDate: '2026-01-01',
  seed: 42,
  minSales: 100_000,
  deepRow: 'middle',
};

/**
 * The mirror's memory check (`--mirror`, issue 55, item 4), in a database of its own: one shop
 * of the full dataset's size for three years (~789,000 sales), read for a year and for the three.
 */
export const LONG_DATASET: DatasetPlan = {
  shops: 1,
  days: 1_096,
  salesPerDay: 720,
  startDate: '2024-01-01',
  seed: 42,
  minSales: 700_000,
  deepRow: 'middle',
};

/** What the scenarios need to know about the seeded data. */
export interface Dataset {
  sales: number;
  lines: number;
  payments: number;
  cashMovements: number;
  shopCodes: string[];
  /** The shop whose year the walk reads, and how many sales it has in it. */
  walkShop: string;
  walkShopSales: number;
  /** Query bounds of every scenario: the seeded year, shop-local, as the API takes them. */
  from: string;
  to: string;
  /** Keyset position of the deep page (the row it follows) and its index in the order. */
  deep: { time: string; id: string; row: number };
  /** The user the scenarios sign in as. */
  user: { id: string; username: string; password: string };
  seededNow: boolean;
}
