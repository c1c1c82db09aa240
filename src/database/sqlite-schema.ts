/**
 * The back-office schema for the embedded SQLite database, translated from the project's MySQL
 * copy (a verbatim copy of the given schema), so a column added there needs no second edit.
 * Same tables, columns, keys, indexes and foreign keys; what SQLite spells otherwise:
 *   - the AUTO_INCREMENT id is `INTEGER PRIMARY KEY AUTOINCREMENT` (SQLite's rowid alias);
 *   - KEY and UNIQUE KEY become CREATE (UNIQUE) INDEX statements;
 *   - text columns of a case-insensitive table (utf8mb4_unicode_ci) compare with COLLATE NOCASE,
 *     as MySQL's collation does (usernames, role names);
 *   - DEFAULT CURRENT_TIMESTAMP(3) is the same 'YYYY-MM-DD HH:MM:SS.mmm' text the service reads,
 *     and ON UPDATE clauses and table options are dropped.
 * DATETIME(3) columns hold that text (text order is time order, as on MySQL), DECIMAL columns
 * have NUMERIC affinity and the service formats them back to the column's scale.
 */
export function sqliteStatements(statements: readonly string[]): string[] {
  return statements.flatMap(sqliteTable);
}

const NOW = "DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))";

function sqliteTable(statement: string): string[] {
  const table = /^CREATE TABLE (\w+) \(([\s\S]*)\)([^)]*)$/.exec(statement);
  if (!table) throw new Error(`The back-office schema holds a statement other than CREATE TABLE`);
  const [, name, body, options] = table;
  const nocase = options.includes('utf8mb4_unicode_ci');
  const parts = topLevelParts(body);
  const autoId = parts.find((part) => /\bAUTO_INCREMENT\b/.test(part))?.split(/\s+/)[0];
  const definitions: string[] = [];
  const indexes: string[] = [];
  for (const part of parts) {
    const key = /^(UNIQUE )?KEY (\w+) (\(.*\))$/.exec(part);
    if (key) {
      const [, unique = '', index, columns] = key;
      indexes.push(`CREATE ${unique}INDEX IF NOT EXISTS ${index} ON ${name} ${columns}`);
    } else if (part === `PRIMARY KEY (${autoId})`) {
      continue;
    } else if (part.startsWith('PRIMARY KEY')) {
      definitions.push(part);
    } else if (part.startsWith('CONSTRAINT ')) {
      definitions.push(part.replace(/^CONSTRAINT \w+ /, ''));
    } else {
      definitions.push(sqliteColumn(part, part.split(/\s+/)[0] === autoId, nocase));
    }
  }
  return [`CREATE TABLE IF NOT EXISTS ${name} (\n  ${definitions.join(',\n  ')}\n)`, ...indexes];
}

function sqliteColumn(definition: string, isAutoId: boolean, nocase: boolean): string {
  const [column, type] = definition.split(/\s+/);
  if (isAutoId) return `${column} INTEGER PRIMARY KEY AUTOINCREMENT`;
  const sqlite = definition
    .replace(/ ON UPDATE CURRENT_TIMESTAMP(\(\d\))?/, '')
    .replace(/DEFAULT CURRENT_TIMESTAMP(\(\d\))?/, NOW);
  return nocase && /^(VAR)?CHAR\b/.test(type) ? `${sqlite} COLLATE NOCASE` : sqlite;
}

/** The comma-separated parts of a CREATE TABLE's body, commas inside parentheses kept. */
function topLevelParts(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of body) {
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    if (char === '(') depth++;
    if (char === ')') depth--;
    current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim().replace(/\s+/g, ' ')).filter((part) => part !== '');
}
