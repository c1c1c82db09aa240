import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import { sqliteStatements } from './sqlite-schema';

/** The project's copy of the given back-office schema (byte for byte; a spec checks it). */
export const BACKOFFICE_SCHEMA_FILE = path.join(__dirname, 'schema', 'backoffice.mysql.sql');

/**
 * Creates the back-office tables from the project's copy of the given schema (translated for
 * SQLite by sqlite-schema.ts), for development, tests and the demo only. Production runs against
 * a back-office database that already exists.
 */
export async function applyBackofficeSchema(dataSource: DataSource): Promise<void> {
  const existing = await backofficeTablesExist(dataSource);
  if (existing) return;
  const mysql = splitSqlStatements(readFileSync(BACKOFFICE_SCHEMA_FILE, 'utf8'));
  const statements = dataSource.options.type === 'mysql' ? mysql : sqliteStatements(mysql);
  for (const statement of statements) await dataSource.query(statement);
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
