import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { run } from '../../packages/client/src/cli/run';
import { PosReadClient } from '../../packages/client/src/index';
import { fencedBlocks, ROOT } from '../readme/readme-commands';
import { requires, TEST_POSTGRES_URL } from '../support/requirements';
import { FakeMirrorApi } from './support/fake-mirror-api';
import { addTwelveSales, NOW } from './support/mirror-records';
import { MYSQL_TARGET, mirrorTables, POSTGRES_TARGET } from './support/mirror-targets';

/** The client README's SQL of the mirror's account: [PostgreSQL's part, MySQL's part]. */
function accountSql(): [string, string] {
  const [block] = fencedBlocks(path.join(ROOT, 'packages/client/README.md'), 'sql');
  const text = block.lines.join('\n');
  const at = text.indexOf('-- MySQL / MariaDB');
  return [text.slice(0, at), text.slice(at)];
}

/** One pass of a mirror of the in-memory service's twelve sales into `into`. */
async function mirrorInto(into: string) {
  const api = new FakeMirrorApi();
  addTwelveSales(api);
  const client = new PosReadClient({
    baseUrl: 'https://fake',
    username: 'u',
    password: 'p',
    fetch: api.fetch,
  });
  await client.mirror({ into, window: 35, now: () => NOW });
  expect(await mirrorTables(into)).toEqual(api.byId());
  expect((await client.mirror({ into, verifyOnly: true, now: () => NOW })).differing).toEqual([]);
}

/**
 * `pos-read mirror --into URL` as the README runs it: the URL without a password, the password in
 * `env` (MYSQL_PWD, read by the command) or in the process's own environment (PGPASSWORD, read
 * by node-postgres). `withPassword` is the same place with the password, to read the copy back.
 */
async function cliMirrorInto(into: string, env: Record<string, string>, withPassword: string) {
  const api = new FakeMirrorApi();
  addTwelveSales(api);
  const stderr = new PassThrough();
  let errors = '';
  stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const code = await run(['--base-url', 'https://fake', 'mirror', '--into', into], {
    env: { POS_READ_USERNAME: 'u', POS_READ_PASSWORD: 'p', ...env },
    stdin: Readable.from([]),
    stdout: new PassThrough().resume(),
    stderr,
    client: { fetch: api.fetch },
  });
  expect({ code, summary: errors.split('\n')[0] }).toEqual({
    code: 0,
    summary: 'rows: sales 12, sale_lines 24, payments 12, cash_movements 4, cash_drawer_sessions 5',
  });
  expect(await mirrorTables(withPassword)).toEqual(api.byId());
}

describe("The mirror's database account, as the client's README writes it, is all it needs (issue 43)", () => {
  const name = `pm_${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const ours = (sql: string, database: string) =>
    sql
      .replace(/\bpos_mirror\b/g, name)
      .replace(/'change me'/g, `'${password}'`)
      .replace(/\berp\b/g, database);

  requires(...POSTGRES_TARGET.requires).it(
    'should mirror into PostgreSQL as that role, its tables in its own schema',
    async () => {
      const place = await POSTGRES_TARGET.create('', 'account');
      const url = new URL(place.into);
      const database = url.pathname.slice(1);
      const admin = new Client({ connectionString: place.into });
      await admin.connect();
      try {
        await admin.query(ours(accountSql()[0], database));
        url.username = name;
        const bare = url.toString();
        url.password = password;
        await mirrorInto(url.toString());
        // The command line: the password in PGPASSWORD, which node-postgres reads itself.
        const before = process.env.PGPASSWORD;
        process.env.PGPASSWORD = password;
        try {
          await cliMirrorInto(bare, {}, url.toString());
        } finally {
          if (before === undefined) delete process.env.PGPASSWORD;
          else process.env.PGPASSWORD = before;
        }
        const { rows } = await admin.query(
          "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name = 'sales'",
        );
        expect(rows).toEqual([{ table_schema: name, table_name: 'sales' }]);
      } finally {
        await admin.end();
        await place.drop();
        const server = new Client({ connectionString: TEST_POSTGRES_URL });
        await server.connect();
        await server.query(`DROP ROLE IF EXISTS ${name}`);
        await server.end();
      }
    },
  );

  requires(...MYSQL_TARGET.requires).it('should mirror into MariaDB as that user', async () => {
    const server = new URL(process.env.TEST_DATABASE_URL as string);
    server.pathname = '/';
    const root = await createConnection({ uri: server.toString(), multipleStatements: true });
    try {
      await root.query(ours(accountSql()[1], 'unused'));
      const url = new URL(server);
      url.username = name;
      url.pathname = `/${name}`;
      const bare = url.toString();
      url.password = password;
      await mirrorInto(url.toString());
      // The command line: the password in MYSQL_PWD, which pos-read puts into the connection.
      await cliMirrorInto(bare, { MYSQL_PWD: password }, url.toString());
    } finally {
      await root.query(`DROP DATABASE IF EXISTS \`${name}\`; DROP USER IF EXISTS '${name}'@'%'`);
      await root.end();
    }
  });
});
