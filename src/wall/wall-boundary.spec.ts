import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Wall } from './wall';

/**
 * The wall around the business data. A pos_* table is named only in a resource's
 * `<resource>.source.ts` (a declaration: table, columns, attached rows), and only the wall
 * (Wall in src/wall/, through its reads and sql/) builds and runs SQL over a source, so a read
 * that forgets the caller's shop scope cannot be written elsewhere. Code outside src/wall/
 * imports only its public surface.
 */
const ROOT = path.resolve(__dirname, '../..');
const WALL = 'src/wall/';
const SCHEMA = 'src/database/schema/backoffice.mysql.sql';
const isSource = (file: string) => /^src\/[a-z-]+\/[a-z-]+\.source\.ts$/.test(file);

/** Files outside the wall that may name pos_* tables, each with its reason. Nothing else may. */
const EXCEPTIONS: ReadonlyArray<{ path: string; reason: string }> = [
  {
    path: 'src/database/schema/',
    reason: 'the copies of the back-office schema (MySQL, SQLite): they create the tables',
  },
  {
    path: 'tools/seed/',
    reason:
      'the data generator behind the demo, the tests and the benchmark: it inserts rows, and ' +
      'reads only the last ids and ticket numbers to append after them, never for a caller',
  },
  {
    path: 'src/app.catalogue.spec.ts',
    reason: "checks the resources' declared tables against the schema, grants and indexes",
  },
  {
    path: 'src/database/sqlite-schema.spec.ts',
    reason: 'checks the SQLite translation of the schema: its tables, indexes and keys',
  },
  {
    path: 'src/wall/wall-boundary.spec.ts',
    reason: 'this spec: the table names it plants to prove the pattern sees every spelling',
  },
  {
    path: 'bench/bench-database.ts',
    reason:
      "prepares the benchmark's own database: seeds it and counts its rows, never for a caller",
  },
  {
    path: 'bench/sync-database.ts',
    reason:
      "the waiting-feed scenarios' own shops and the sales they commit as the back office " +
      'would, and the sale the digest-cache scenario changes, in the benchmark database; never ' +
      'for a caller',
  },
  {
    path: 'bench/raw-stream.ts',
    reason:
      "the bulk read's floor: mysql2 streaming the walk shop's year straight from the bench's " +
      'own database into a file, no service; never for a caller',
  },
  {
    path: 'bench/binlog.ts',
    reason:
      "the burst of row changes the binary log's scenario writes to payments, in the bench's own " +
      'MariaDB; never for a caller',
  },
  {
    path: 'bench/open-drawer.ts',
    reason:
      "plants a register whose drawer is never counted, and removes it after, in the benchmark's " +
      'own database; never for a caller',
  },
];

/** What code outside the wall may import from src/wall/. */
const PUBLIC_SURFACE = new Set([
  'wall', // the Wall: every read of a source, the shops, with the caller's claims; its types
  'wall.module', // the Nest module that provides the Wall
  'shop-scope', // ShopScope, the scope made from a caller's claims (the feeds' waiters wake on it)
  'list-read', // the list's read (LIST_READ) and its query and position types
  'feed-read', // the feed's read (FEED_READ) and its query and slice types
  // The waiting feeds' poll (sync/changes): the newest id per shop of a table, for the shops the
  // waiters' scopes name; no row of business data leaves it.
  'sql/arrival-poll.sql',
  // The binary log's look-ups (sync/changes): the shop and date of the rows a change moves (a
  // sale line's sale, a sale's payments), for the change source's marks, never for a caller.
  'sql/change-lookups.sql',
]);

/** What runs SQL: a query call, or the data source and readers it goes through. */
const RUNS_SQL =
  /\.query\s*\(|from '[^']*(?:typeorm|\/database\/sql-reader|\/database\/replicas\/[^']*)'|\bSELECT\b|\bWHERE\b/;

/** The pos_* tables of the back-office schema, named literally or built from 'pos_' plus a name. */
function tablePattern(schema: string): RegExp {
  const tables = [...schema.matchAll(/CREATE TABLE (pos_\w+)/gi)].map((m) => m[1]);
  return new RegExp(`\\b(?:${tables.join('|')})\\b|\\bpos_(?![A-Za-z0-9_])`, 'i');
}

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
}

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const excepted = (file: string) => EXCEPTIONS.find((e) => file.startsWith(e.path));

describe(`${Wall.name}: the wall`, () => {
  const pattern = tablePattern(read(SCHEMA));
  const files = [...filesUnder('src'), ...filesUnder('tools'), ...filesUnder('bench')];

  it('should see every pos_* table, however it is written, and nothing else', () => {
    for (const planted of [
      'SELECT * FROM pos_sales s',
      'JOIN pos_sale_lines l ON l.sale_id = s.id',
      'from POS_PAYMENTS',
      "`pos_${'cash_movements'}`",
      "'pos_' + table",
      'pos_registers',
    ]) {
      expect({ planted, found: pattern.test(planted) }).toEqual({ planted, found: true });
    }
    for (const innocent of [
      'pos_api_tokens_issued_total',
      'mysql://pos_api:secret@db/bo',
      'pos_salesman',
    ]) {
      expect({ innocent, found: pattern.test(innocent) }).toEqual({ innocent, found: false });
    }
  });

  it('should find the tables where the sources name them', () => {
    expect(files.length).toBeGreaterThan(100);
    const naming = files.filter((f) => isSource(f) && pattern.test(read(f)));
    expect(naming).toEqual(
      expect.arrayContaining([
        'src/sales/sales.source.ts',
        'src/payments/payments.source.ts',
        'src/cash-movements/cash-movements.source.ts',
      ]),
    );
  });

  it('should let no file but a *.source.ts name a pos_* table, except the listed ones', () => {
    const others = files.filter((f) => !isSource(f) && !excepted(f) && pattern.test(read(f)));
    expect(others).toEqual([]);
  });

  it('should find SQL being run where it is, and nothing else', () => {
    for (const running of [
      'await db.query(sql, params)',
      "from '../database/sql-reader'",
      "import { DataSource } from 'typeorm'",
      'SELECT 1',
    ]) {
      expect({ running, found: RUNS_SQL.test(running) }).toEqual({ running, found: true });
    }
    expect(RUNS_SQL.test("import { col, defineSource } from '../catalogue/source';")).toBe(false);
  });

  it('should let a source only declare: no SQL text, no query run, no database import', () => {
    const sources = files.filter(isSource);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    expect(sources.filter((f) => RUNS_SQL.test(read(f)))).toEqual([]);
  });

  it('should let only the wall run a source: no file outside src/wall/ that imports one runs SQL', () => {
    const using = files.filter(
      (f) =>
        f.endsWith('.ts') &&
        !f.startsWith(WALL) &&
        !excepted(f) &&
        /from '[^']*\.source'/.test(read(f)),
    );
    expect(using.length).toBeGreaterThan(5);
    expect(using.filter((f) => RUNS_SQL.test(read(f)))).toEqual([]);
  });

  it('should list only exceptions that are still needed, each with its reason', () => {
    for (const exception of EXCEPTIONS) {
      const naming = files.filter((f) => f.startsWith(exception.path) && pattern.test(read(f)));
      expect({ exception: exception.path, naming: naming.length > 0 }).toEqual({
        exception: exception.path,
        naming: true,
      });
      expect(exception.reason.length).toBeGreaterThan(20);
    }
  });

  it('should let code outside src/wall/ import only its public surface', () => {
    const outside = [...files, ...filesUnder('test')].filter(
      (f) => f.endsWith('.ts') && !f.startsWith(WALL),
    );
    const reaching = outside.flatMap((file) =>
      [...read(file).matchAll(/(?:from|import\()\s*'[^']*\/wall\/([^']+)'/g)]
        .map((m) => m[1])
        .filter((target) => !PUBLIC_SURFACE.has(target))
        .map((target) => `${file} imports wall/${target}`),
    );
    expect(reaching).toEqual([]);
  });
});
