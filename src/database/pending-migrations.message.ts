/**
 * What the service says when its own migrations are pending on MySQL: they are not the runtime
 * account's to run (it has no DDL), so the message names the migration account and the exact
 * command, on the same database as DATABASE_URL, with the password left for the operator.
 */
export function pendingMigrationsMessage(pending: readonly string[], databaseUrl: string): string {
  let target = 'mysql://pos_api_migrate:<password>@<host>:<port>/<database>';
  try {
    const url = new URL(databaseUrl);
    url.username = 'pos_api_migrate';
    url.password = 'PASSWORD';
    url.search = '';
    target = url.toString().replace(':PASSWORD@', ':<password>@');
  } catch {
    // Unparsable: the generic form above (the configuration would have refused it anyway).
  }
  const names = pending.length > 0 ? ` (${pending.join(', ')})` : '';
  return (
    `The service's own tables are missing or out of date: ${pending.length} migration(s) pending${names}. ` +
    'Run them as the migration account (created by sql/migration-account.sql), not the ' +
    "service's runtime account, which may not change the schema: " +
    `DATABASE_URL='${target}' npm run migration:run`
  );
}
