import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { GENERATED_SCRIPTS, regenerate } from './catalogue-sql';

/**
 * `npm run sql:write`: rewrites the catalogue's lines of sql/*.sql (tools/sql/catalogue-sql.ts);
 * `npm run sql:check`: exits 1, naming the scripts, when one differs from what it would write.
 */
function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const stale: string[] = [];
  for (const { file, account } of GENERATED_SCRIPTS) {
    const full = path.resolve(process.cwd(), file);
    const text = readFileSync(full, 'utf8');
    const generated = regenerate(text, account);
    if (generated === text) continue;
    if (check) stale.push(file);
    else writeFileSync(full, generated);
  }
  if (stale.length > 0) {
    process.stderr.write(
      `${stale.join(', ')}: not what the catalogue gives (src/app.catalogue.ts). Run npm run sql:write.\n`,
    );
    return 1;
  }
  process.stdout.write(
    check ? 'sql/ matches the catalogue.\n' : 'sql/ written from the catalogue.\n',
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
