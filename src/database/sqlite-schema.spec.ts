import { readFileSync } from 'node:fs';
import { BACKOFFICE_SCHEMA_FILE, splitSqlStatements } from './backoffice-schema';
import { loadSqliteDriver } from './sqlite-driver';
import { sqliteStatements } from './sqlite-schema';

type Db = {
  exec(sql: string): void;
  prepare(sql: string): {
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  close(): void;
};
const Database = loadSqliteDriver() as new (file: string) => Db;

describe(sqliteStatements.name, () => {
  let db: Db;
  beforeEach(() => {
    db = new Database(':memory:');
    db.exec('PRAGMA foreign_keys = ON');
    const mysql = splitSqlStatements(readFileSync(BACKOFFICE_SCHEMA_FILE, 'utf8'));
    for (const statement of sqliteStatements(mysql)) db.exec(statement);
  });
  afterEach(() => db.close());

  it('should create every table of the MySQL copy, with each KEY as an index', () => {
    const names = (type: string) =>
      (
        db
          .prepare(`SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'`)
          .all(type) as Array<{ name: string }>
      )
        .map((row) => row.name)
        .sort();
    // Read off the MySQL copy with patterns of its own, not the translator's parser.
    const copy = readFileSync(BACKOFFICE_SCHEMA_FILE, 'utf8');
    const declared = (pattern: RegExp) => [...copy.matchAll(pattern)].map((m) => m[1]).sort();
    expect(names('table')).toEqual(declared(/^CREATE TABLE (\w+) \(/gm));
    expect(names('index')).toEqual(declared(/^\s+(?:UNIQUE )?KEY (\w+) \(/gm));
    expect(names('table')).toEqual(expect.arrayContaining(['bo_users', 'pos_sales']));
    expect(names('index')).toEqual(
      expect.arrayContaining(['ix_pos_sales_shop_sold', 'uq_bo_users_username']),
    );
  });

  it('should number ids by AUTOINCREMENT and stamp created_at as the stored DATETIME(3) text', () => {
    db.exec("INSERT INTO bo_users (username, password_hash) VALUES ('ann', 'x'), ('bob', 'y')");
    const rows = db.prepare('SELECT id, created_at FROM bo_users ORDER BY id').all() as Array<{
      id: number;
      created_at: string;
    }>;
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
    expect(rows[0].created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
  });

  it('should compare the text of a case-insensitive table without case, and keep it unique so', () => {
    db.exec("INSERT INTO bo_users (username, password_hash) VALUES ('Bob', 'x')");
    expect(db.prepare("SELECT COUNT(*) AS n FROM bo_users WHERE username = 'bOB'").get()).toEqual({
      n: 1,
    });
    expect(() =>
      db.exec("INSERT INTO bo_users (username, password_hash) VALUES ('BOB', 'y')"),
    ).toThrow(/UNIQUE/);
    // pos_registers is utf8mb4_bin on MySQL: case matters there.
    db.exec("INSERT INTO bo_shops (code, name) VALUES ('M1', 'Shop')");
    db.exec("INSERT INTO pos_registers (shop_code, code) VALUES ('M1', 'R1'), ('M1', 'r1')");
    expect(db.prepare("SELECT COUNT(*) AS n FROM pos_registers WHERE code = 'r1'").get()).toEqual({
      n: 1,
    });
  });

  it('should keep the foreign keys, a register of an unknown shop refused', () => {
    expect(() =>
      db.exec("INSERT INTO pos_registers (shop_code, code) VALUES ('NOPE', 'R1')"),
    ).toThrow(/FOREIGN KEY/);
  });

  it('should refuse a statement other than CREATE TABLE', () => {
    expect(() => sqliteStatements(['DROP TABLE bo_users'])).toThrow(/other than CREATE TABLE/);
  });
});
