import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import {
  CASH_DRAWER_SESSIONS,
  recordOf,
  SALE_LINES,
  SALES,
  TABLES,
} from '../../../packages/client/src/mirror/schema';
import { openMysql, openPostgres } from '../../../packages/client/src/mirror/sql-stores';
import { loadSqliteDriver } from '../../../packages/client/src/mirror/sqlite-driver';
import { openSqlite } from '../../../packages/client/src/mirror/sqlite-store';
import { dialectOf, type MirrorStore } from '../../../packages/client/src/mirror/store';
import { mariadb, postgres, type Requirement, TEST_POSTGRES_URL } from '../../support/requirements';

/** Where a mirror spec keeps its copy: a SQLite file, or a fresh PostgreSQL or MariaDB database. */
export interface MirrorTarget {
  kind: 'sqlite' | 'postgres' | 'mysql';
  /** What it needs from outside npm (none for SQLite). */
  requires: Requirement[];
  /** A new, empty place for a mirror (`--into`), and how to remove it. */
  create(dir: string, name: string): Promise<{ into: string; drop(): Promise<void> }>;
}

const unique = (name: string) =>
  `mirror_${name.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`.toLowerCase();

export const SQLITE_TARGET: MirrorTarget = {
  kind: 'sqlite',
  requires: [],
  create: async (dir, name) => ({ into: path.join(dir, `${name}.sqlite`), drop: async () => {} }),
};

export const POSTGRES_TARGET: MirrorTarget = {
  kind: 'postgres',
  requires: [postgres],
  async create(_dir, name) {
    const database = unique(name);
    const admin = async (sql: string) => {
      const client = new Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${database}`;
    return {
      into: url.toString(),
      drop: () => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
    };
  },
};

export const MYSQL_TARGET: MirrorTarget = {
  kind: 'mysql',
  requires: [mariadb],
  async create(_dir, name) {
    const database = unique(name);
    const server = new URL(process.env.TEST_DATABASE_URL as string);
    server.pathname = '/';
    const admin = async (sql: string) => {
      const connection = await createConnection({ uri: server.toString() });
      try {
        await connection.query(sql);
      } finally {
        await connection.end();
      }
    };
    await admin(`CREATE DATABASE \`${database}\``);
    const url = new URL(server);
    url.pathname = `/${database}`;
    return { into: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS \`${database}\``) };
  },
};

export const MIRROR_TARGETS = [SQLITE_TARGET, POSTGRES_TARGET, MYSQL_TARGET];

/** The mirror's own store over `into`, for a spec to read or change it behind the mirror's back. */
export async function storeOf(into: string, readOnly = false): Promise<MirrorStore> {
  const kind = dialectOf(into);
  if (kind === 'postgres') return openPostgres(into, readOnly);
  if (kind === 'mysql') return openMysql(into, readOnly);
  return openSqlite(await loadSqliteDriver(), into, readOnly, () => undefined);
}

/** One statement run on a mirror behind its back (a tampered copy). */
export async function tamper(into: string, sql: string, ...parameters: unknown[]) {
  const store = await storeOf(into);
  try {
    await store.run(sql, parameters);
  } finally {
    await store.close();
  }
}

/** A mirror's `mirror_state` rows, `[key, value]`, in key order. */
export async function inspectState(into: string): Promise<Array<[string, string]>> {
  const store = await storeOf(into, true);
  try {
    const rows = await store.all(
      `SELECT ${store.dialect.quote('key')} AS k, ${store.dialect.quote('value')} AS v FROM mirror_state ORDER BY 1`,
    );
    return rows.map((row) => [String(row.k), String(row.v)]);
  } finally {
    await store.close();
  }
}

/**
 * A mirror's tables read back as the API's records (the README's column mapping, each row's
 * `extra` merged back), per resource in id order, with each sale's lines: to compare with the
 * API's lists row for row, whatever the database. The drawer sessions too, when the mirror has
 * their table (from schema version 3).
 */
export async function mirrorTables(into: string): Promise<Record<string, unknown[]>> {
  const store = await storeOf(into, true);
  try {
    const result: Record<string, unknown[]> = {};
    const lines = new Map<string, unknown[]>();
    for (const row of await store.all('SELECT * FROM sale_lines ORDER BY sale_id, line_no')) {
      const id = String(row.sale_id);
      lines.set(id, [...(lines.get(id) ?? []), recordOf(SALE_LINES, row)]);
    }
    const present = await store.tables();
    for (const table of [...TABLES, CASH_DRAWER_SESSIONS]) {
      if (!present.includes(table.table)) continue;
      const rows = await store.all(`SELECT * FROM ${table.table} ORDER BY id`);
      result[table.resource] = rows.map((row) => {
        const record = recordOf(table.columns, row);
        return table === SALES ? { ...record, lines: lines.get(String(row.id)) ?? [] } : record;
      });
    }
    return result;
  } finally {
    await store.close();
  }
}
