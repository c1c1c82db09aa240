import { recommendedIndexes } from '../../src/database/recommended-indexes';
import type { Source } from '../../src/catalogue/source';
import { CATALOGUE } from '../../src/app.catalogue';

/**
 * The lines of the SQL scripts that follow from the catalogue (src/app.catalogue.ts), written between
 * two marker comments by `npm run sql:write` and checked by `npm run sql:check` (CI): the SELECT
 * grants of the tables the resources read, in the runtime and replica accounts' scripts, and the
 * (shop_code, id) index each feed reads by. A resource's new table costs no hand edit there.
 */

export const BEGIN =
  '-- BEGIN generated from src/app.catalogue.ts by npm run sql:write: do not edit';
export const END = '-- END generated';

/** The scripts, each with the account its grants name (none: the indexes). */
export const GENERATED_SCRIPTS = [
  { file: 'sql/least-privilege.sql', account: "'pos_api'@'%'" },
  { file: 'sql/least-privilege-replica.sql', account: "'pos_api_replica'@'%'" },
  { file: 'sql/binlog-account.sql', account: "'pos_api_binlog'@'%'" },
  { file: 'sql/recommended-indexes.sql', account: null },
] as const;

/** Every table a source reads: its own, its attachments', those its derived columns look up. */
function tablesOf(source: Source<unknown>): string[] {
  const lookups = Object.values(source.derived).flatMap((c) =>
    c.derivation?.kind === 'lookup' ? [c.derivation.table] : [],
  );
  return [source.table, ...source.attached.map((a) => a.table), ...lookups];
}

/** The back-office tables the catalogue's resources read, in the catalogue's order, once each. */
export function cataloguedTables(catalogue = CATALOGUE): string[] {
  return [...new Set(catalogue.flatMap(({ source }) => tablesOf(source)))];
}

/** The tables a script grants outside its generated block (the sign-in's, written by hand). */
function grantedByHand(text: string): Set<string> {
  const outside = text.replace(new RegExp(`${BEGIN}[\\s\\S]*?${END}`), '');
  return new Set([...outside.matchAll(/^GRANT SELECT[^;]* ON (\w+) TO/gm)].map((m) => m[1]));
}

/** The generated block of a script, markers included. */
export function generatedBlock(
  text: string,
  account: string | null,
  catalogue = CATALOGUE,
): string {
  let lines: string[];
  if (account === null) {
    lines = recommendedIndexes(catalogue).map(
      ({ name, table, columns }) =>
        `CREATE INDEX ${name} ON ${table} (${columns.join(', ')}) ALGORITHM=INPLACE LOCK=NONE;`,
    );
  } else {
    const byHand = grantedByHand(text);
    lines = cataloguedTables(catalogue)
      .filter((table) => !byHand.has(table))
      .map((table) => `GRANT SELECT ON ${table} TO ${account};`);
  }
  return [BEGIN, ...lines, END].join('\n');
}

/** The script with its generated block rewritten; a script without the markers is an error. */
export function regenerate(text: string, account: string | null, catalogue = CATALOGUE): string {
  const block = new RegExp(`${BEGIN}[\\s\\S]*?${END}`);
  if (!block.test(text)) throw new Error(`no "${BEGIN}" … "${END}" block`);
  return text.replace(block, () => generatedBlock(text, account, catalogue));
}
