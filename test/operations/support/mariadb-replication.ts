import { ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Connection, createConnection } from 'mysql2/promise';
import { freePort } from '../../support/service-process';
import { program } from '../../support/requirements';

const MARIADBD = '/usr/sbin/mariadbd';
const MARIADB_INSTALL_DB = '/usr/bin/mariadb-install-db';

/** The MariaDB server programs the replication spec runs itself (requirements.ts). */
export const mariadbServerPrograms = [
  program(MARIADBD, 'apt-get install mariadb-server', 'mariadbd'),
  program(MARIADB_INSTALL_DB, 'apt-get install mariadb-server', 'mariadb-install-db'),
];

/** One mariadbd of the test, in a temporary directory, on a free loopback port. */
class MariadbServer {
  private exited!: Promise<void>;
  private process!: ChildProcess;

  private constructor(
    readonly name: string,
    readonly dir: string,
    readonly port: number,
    private readonly args: readonly string[],
  ) {
    this.spawn();
  }

  private spawn(): void {
    const child = spawn(MARIADBD, this.args, { stdio: 'ignore' });
    this.process = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** Starts a server on a copy of `template` (a data directory made by mariadb-install-db). */
  static async start(
    name: string,
    template: string,
    serverId: number,
    extraArgs: readonly string[] = [],
  ): Promise<MariadbServer> {
    const dir = mkdtempSync(path.join(tmpdir(), `pos-api-${name}-`));
    cpSync(template, path.join(dir, 'data'), { recursive: true });
    const port = await freePort();
    const server = new MariadbServer(name, dir, port, [
      '--no-defaults',
      `--datadir=${path.join(dir, 'data')}`,
      `--socket=${path.join(dir, 'mysqld.sock')}`,
      `--pid-file=${path.join(dir, 'mysqld.pid')}`,
      `--log-error=${path.join(dir, 'error.log')}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--user=root',
      `--server-id=${serverId}`,
      '--log-bin=binlog',
      '--gtid-strict-mode=1',
      '--innodb-buffer-pool-size=32M',
      '--innodb-log-file-size=16M',
      '--performance-schema=0',
      '--skip-log-warnings',
      ...extraArgs,
    ]);
    await server.waitUntilUp();
    return server;
  }

  /** Starts a killed server again on its own data (crash recovery; a replica resumes). */
  async restart(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) return;
    this.spawn();
    await this.waitUntilUp();
  }

  get errorLog(): string {
    const file = path.join(this.dir, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** A connection as the server's root (through its socket: root is root@localhost). */
  rootConnection(): Promise<Connection> {
    return createConnection({ socketPath: path.join(this.dir, 'mysqld.sock'), user: 'root' });
  }

  /** Kills the server at once, as a crash would (SIGKILL). */
  async kill(): Promise<void> {
    this.process.kill('SIGKILL');
    await this.exited;
  }

  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes its directory. */
  async stopAndRemove(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill('SIGTERM');
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
      await this.exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async waitUntilUp(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.process.exitCode !== null) {
        throw new Error(`${this.name} exited at start:\n${this.errorLog}`);
      }
      try {
        const connection = await this.rootConnection();
        await connection.end();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

/** A primary and its replica with GTID replication, plus the accounts the test uses. */
export interface Replication {
  primary: MariadbServer;
  replica: MariadbServer;
  /** An administrator over TCP: mysql://admin:...@127.0.0.1:<port>/<database> of each server. */
  primaryUrl: string;
  replicaUrl: string;
  /** The replica, as the account sql/least-privilege-replica.sql creates (once it has run). */
  replicaReaderUrl: string;
  /** Waits until the replica has applied everything the primary wrote so far. */
  sync(): Promise<void>;
  /** Runs SQL on the replica as root (STOP SLAVE SQL_THREAD, ...). */
  onReplica(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

/** The password of every account of these throw-away servers (also @replica_password). */
export const ADMIN_PASSWORD = 'replication-test-admin';

/** Runs `sql` as root on a server, outside the binary log (each server gets its own accounts). */
async function unlogged(server: MariadbServer, statements: string[]): Promise<void> {
  const connection = await server.rootConnection();
  try {
    await connection.query('SET sql_log_bin = 0');
    for (const sql of statements) await connection.query(sql);
  } finally {
    await connection.end();
  }
}

/**
 * Makes one data directory with mariadb-install-db, starts a primary and a replica on copies of
 * it, and starts GTID replication; `database` is created on the primary (and replicated).
 */
/** A data directory made by mariadb-install-db in a new temporary directory (its parent). */
async function installTemplate(): Promise<{ templateDir: string; template: string }> {
  const templateDir = mkdtempSync(path.join(tmpdir(), 'pos-api-mariadb-template-'));
  const template = path.join(templateDir, 'data');
  await promisify(execFile)(MARIADB_INSTALL_DB, [
    '--no-defaults',
    `--datadir=${template}`,
    '--user=root',
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  return { templateDir, template };
}

/** One server writing its binary log in row format, with full images (issue 57's settings). */
export interface BinlogServer {
  server: MariadbServer;
  /** An administrator over TCP: mysql://admin:...@127.0.0.1:<port>/<database>. */
  adminUrl: string;
  close(): Promise<void>;
}

/**
 * A primary alone, its binary log on in row format with full row images and full metadata (as
 * docs/operations.md, "The binary log", asks), `database` created on it.
 */
export async function startBinlogServer(database: string): Promise<BinlogServer> {
  const { templateDir, template } = await installTemplate();
  let server: MariadbServer | undefined;
  try {
    server = await MariadbServer.start('binlog', template, 1, [
      '--binlog-format=ROW',
      '--binlog-row-image=FULL',
      '--binlog-row-metadata=FULL',
    ]);
    await unlogged(server, [
      `CREATE USER 'admin'@'127.0.0.1' IDENTIFIED BY '${ADMIN_PASSWORD}'`,
      `GRANT ALL ON *.* TO 'admin'@'127.0.0.1' WITH GRANT OPTION`,
    ]);
    const root = await server.rootConnection();
    await root.query(
      `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    await root.end();
    const started = server;
    return {
      server: started,
      adminUrl: `mysql://admin:${ADMIN_PASSWORD}@127.0.0.1:${started.port}/${database}`,
      close: async () => {
        await started.stopAndRemove();
        rmSync(templateDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.stopAndRemove();
    rmSync(templateDir, { recursive: true, force: true });
    throw error;
  }
}

export async function startReplication(database: string): Promise<Replication> {
  const { templateDir, template } = await installTemplate();
  const servers: MariadbServer[] = [];
  try {
    const primary = await MariadbServer.start('primary', template, 1);
    servers.push(primary);
    const replica = await MariadbServer.start('replica', template, 2);
    servers.push(replica);
    const admin = `CREATE USER 'admin'@'127.0.0.1' IDENTIFIED BY '${ADMIN_PASSWORD}'`;
    const grantAdmin = `GRANT ALL ON *.* TO 'admin'@'127.0.0.1' WITH GRANT OPTION`;
    await unlogged(primary, [
      admin,
      grantAdmin,
      `CREATE USER 'repl'@'127.0.0.1' IDENTIFIED BY '${ADMIN_PASSWORD}'`,
      `GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1'`,
    ]);
    await unlogged(replica, [
      admin,
      grantAdmin,
      "SET GLOBAL gtid_slave_pos = ''",
      `CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = ${primary.port},
         MASTER_USER = 'repl', MASTER_PASSWORD = '${ADMIN_PASSWORD}', MASTER_USE_GTID = slave_pos`,
      'START SLAVE',
    ]);
    const root = await primary.rootConnection();
    await root.query(
      `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    await root.end();
    const url = (server: MariadbServer, user = 'admin'): string =>
      `mysql://${user}:${ADMIN_PASSWORD}@127.0.0.1:${server.port}/${database}`;
    const replication: Replication = {
      primary,
      replica,
      primaryUrl: url(primary),
      replicaUrl: url(replica),
      replicaReaderUrl: url(replica, 'pos_api_replica'),
      sync: async () => {
        const p = await primary.rootConnection();
        const [[{ pos }]] = (await p.query('SELECT @@gtid_binlog_pos AS pos')) as unknown as [
          Array<{ pos: string }>,
        ];
        await p.end();
        const r = await replica.rootConnection();
        const [[{ done }]] = (await r.query('SELECT MASTER_GTID_WAIT(?, 20) AS done', [
          pos,
        ])) as unknown as [Array<{ done: number }>];
        await r.end();
        if (Number(done) !== 0)
          throw new Error(`replica did not reach ${pos}:\n${replica.errorLog}`);
      },
      onReplica: async (sql) => {
        const r = await replica.rootConnection();
        try {
          return (await r.query(sql))[0];
        } finally {
          await r.end();
        }
      },
      close: async () => {
        for (const server of servers) await server.stopAndRemove();
        rmSync(templateDir, { recursive: true, force: true });
      },
    };
    await replication.sync();
    return replication;
  } catch (error) {
    for (const server of servers) await server.stopAndRemove();
    rmSync(templateDir, { recursive: true, force: true });
    throw error;
  }
}
