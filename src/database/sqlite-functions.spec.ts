import { createHash } from 'node:crypto';
import { loadSqliteDriver } from './sqlite-driver';
import { registerSqliteFunctions, type SqliteFunctionRegistry } from './sqlite-functions';

/** What this spec uses of better-sqlite3's Database (the package ships no types). */
interface Sqlite extends SqliteFunctionRegistry {
  prepare(sql: string): { get(...params: unknown[]): Record<string, unknown> };
}

const Database = loadSqliteDriver() as new (file: string) => Sqlite;

const sha = (algorithm: string, ...parts: Array<string | Buffer>) => {
  const hash = createHash(algorithm);
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

describe(registerSqliteFunctions.name, () => {
  const db = new Database(':memory:');
  registerSqliteFunctions(db);
  const one = (sql: string, ...params: unknown[]) => db.prepare(sql).get(...params).v;

  it("should give SHA2 as MySQL's: the hex digest of the UTF-8 text, NULL for NULL or another length", () => {
    expect(one("SELECT SHA2('é,''x''', 256) AS v")).toBe(sha('sha256', "é,'x'"));
    expect(one('SELECT SHA2(12.5, 0) AS v')).toBe(sha('sha256', '12.5'));
    expect(one('SELECT SHA2(?, 512) AS v', 'a')).toBe(sha('sha512', 'a'));
    expect(one("SELECT SHA2(X'00ff', 224) AS v")).toBe(sha('sha224', Buffer.from([0, 255])));
    expect(one('SELECT SHA2(NULL, 256) AS v')).toBeNull();
    expect(one("SELECT SHA2('a', 128) AS v")).toBeNull();
  });

  it("should give SHA2_CONCAT the SHA-256 of the group's values concatenated in its ORDER BY, NULLs skipped, NULL without one", () => {
    const rows =
      "(SELECT 2 AS k, X'0102' AS b UNION ALL SELECT 1, X'ff' UNION ALL SELECT 3, NULL " +
      "UNION ALL SELECT 4, 'é')";
    const ordered = sha('sha256', Buffer.from([0xff]), Buffer.from([1, 2]), 'é');
    expect(one(`SELECT SHA2_CONCAT(b ORDER BY k) AS v FROM ${rows}`)).toBe(ordered);
    expect(one(`SELECT SHA2_CONCAT(b ORDER BY k DESC) AS v FROM ${rows}`)).not.toBe(ordered);
    expect(one(`SELECT SHA2_CONCAT(b ORDER BY k) AS v FROM ${rows} WHERE k > 9`)).toBeNull();
    expect(one(`SELECT SHA2_CONCAT(b ORDER BY k) AS v FROM ${rows} WHERE k = 3`)).toBeNull();
  });
});
