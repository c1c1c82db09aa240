import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';

/**
 * Creates the back-office tables from the project's copy of the given schema, for development,
 * tests and the demo only. Production runs against a back-office database that already exists.
 */
export async function applyBackofficeSchema(dataSource: DataSource): Promise<void> {
  const isMysql = dataSource.options.type === 'mysql';
  const file = path.join(
    __dirname,
    'schema',
    isMysql ? 'backoffice.mysql.sql' : 'backoffice.sqlite.sql',
  );
  const existing = await backofficeTablesExist(dataSource);
  if (existing) return;
  for (const statement of splitSqlStatements(readFileSync(file, 'utf8'))) {
    await dataSource.query(statement);
  }
}

export async function backofficeTablesExist(dataSource: DataSource): Promise<boolean> {
  const runner = dataSource.createQueryRunner();
  try {
    return await runner.hasTable('bo_users');
  } finally {
    await runner.release();
  }
}

/** Splits a schema file into statements, dropping `--` comments (the schema has no string literals with ';'). */
export function splitSqlStatements(sql: string): string[] {
  return sql
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
