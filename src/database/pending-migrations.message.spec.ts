import { pendingMigrationsMessage } from './pending-migrations.message';

describe(pendingMigrationsMessage.name, () => {
  it('should name the migration account, its script and the command on the same database, without the password', () => {
    const message = pendingMigrationsMessage(
      ['ApiTables1700000000000'],
      'mysql://pos_api:runtime-secret@db-host:3306/backoffice?connectionLimit=5',
    );
    expect(message).toContain('1 migration(s) pending (ApiTables1700000000000)');
    expect(message).toContain('sql/migration-account.sql');
    expect(message).toMatch(
      /DATABASE_URL='mysql:\/\/pos_api_migrate:<password>@db-host:3306\/backoffice' npm run migration:run$/,
    );
    expect(message).not.toContain('runtime-secret');
    expect(message).not.toContain('connectionLimit');
  });

  it('should fall back to the command with placeholders for an unparsable URL', () => {
    expect(pendingMigrationsMessage([], 'not a url')).toContain(
      "DATABASE_URL='mysql://pos_api_migrate:<password>@<host>:<port>/<database>' npm run migration:run",
    );
  });
});
