import { loadSqliteDriver, sqliteDriverPackage } from './sqlite-driver';

describe('sqliteDriverPackage', () => {
  it('should take better-sqlite3 13 where Node-API 10 is there (Node 22.14 and later)', () => {
    expect(sqliteDriverPackage('10')).toBe('better-sqlite3');
    expect(sqliteDriverPackage('11')).toBe('better-sqlite3');
  });

  it('should keep better-sqlite3 12 on Node 20 (Node-API 9), where 13 crashes', () => {
    expect(sqliteDriverPackage('9')).toBe('better-sqlite3-node20');
    expect(sqliteDriverPackage(undefined)).toBe('better-sqlite3-node20');
  });

  it('should load a driver that opens a database on the running Node', () => {
    type Driver = new (file: string) => {
      prepare(sql: string): { get(): unknown };
      close(): void;
    };
    const Database = loadSqliteDriver() as Driver;
    const db = new Database(':memory:');
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    db.close();
  });
});
