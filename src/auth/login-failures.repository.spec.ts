import type { DataSource, QueryRunner } from 'typeorm';
import { loadConfig } from '../config/load-config';
import { databaseKinds, type MigratedDatabase } from '../database/testing/migrated-database';
import { LoginFailuresRepository, type Reservation } from './login-failures.repository';
import { SignInConnections } from './sign-in-connections';

const MINUTE = 60_000;
/** 3 guesses of a name from one address, 5 from all addresses, per 10 minutes; locks of 15. */
const config = loadConfig({
  APP_ENV: 'development',
  LOGIN_MAX_FAILURES: '3',
  LOGIN_MAX_FAILURES_PER_NAME: '5',
  LOGIN_FAILURE_WINDOW_MINUTES: '10',
  LOGIN_LOCKOUT_MINUTES: '15',
});
const T0 = Date.UTC(2026, 0, 5, 9);
const IN_FLIGHT = { reserved: false, refusal: 'in_flight', retryAfterMs: 1000 };
const RESERVED = { reserved: true };

for (const { kind, describe: describeOn, open } of databaseKinds()) {
  describeOn(`${LoginFailuresRepository.name} [${kind === 'mysql' ? 'mariadb' : kind}]`, () => {
    let database: MigratedDatabase;
    let failures: LoginFailuresRepository;
    let names = 0;
    /** A name no other test used: the table is shared by the file's tests. */
    const freshName = () => `user${++names}`;

    beforeAll(async () => {
      database = await open();
      failures = new LoginFailuresRepository(database.db, config);
    });
    afterAll(async () => {
      await database?.close();
    });

    const reserveTimes = async (n: number, name: string, client: string, now = T0) => {
      const outcomes = [];
      for (let i = 0; i < n; i++) outcomes.push(await failures.reserve(name, client, now));
      return outcomes;
    };

    it('should reserve LOGIN_MAX_FAILURES guesses of a name from one address, then refuse while they are verified', async () => {
      const name = freshName();
      expect(await reserveTimes(3, name, '203.0.113.1')).toEqual([RESERVED, RESERVED, RESERVED]);
      expect(await failures.reserve(name, '203.0.113.1', T0)).toEqual(IN_FLIGHT);
      // Another address and another name have budgets of their own.
      expect(await failures.reserve(name, '203.0.113.2', T0)).toEqual(RESERVED);
      expect(await failures.reserve(freshName(), '203.0.113.1', T0)).toEqual(RESERVED);
    });

    it('should lock the name from that address at its last failure, for LOGIN_LOCKOUT_MINUTES to the millisecond', async () => {
      const name = freshName();
      // Each guess is reserved before its password is checked, then fails.
      await failures.reserve(name, '203.0.113.1', T0);
      expect(await failures.failed(name, '203.0.113.1', T0)).toBe(false);
      await failures.reserve(name, '203.0.113.1', T0);
      expect(await failures.failed(name, '203.0.113.1', T0)).toBe(false);
      await failures.reserve(name, '203.0.113.1', T0);
      expect(await failures.failed(name, '203.0.113.1', T0 + 1)).toBe(true);
      // Only one racing failure sets the lock.
      expect(await failures.failed(name, '203.0.113.1', T0 + 2)).toBe(false);
      const until = T0 + 1 + 15 * MINUTE;
      expect(await failures.reserve(name, '203.0.113.1', T0 + 1000)).toEqual({
        reserved: false,
        refusal: 'locked',
        retryAfterMs: until - (T0 + 1000),
      });
      expect(await failures.reserve(name, '203.0.113.1', until - 1)).toEqual({
        reserved: false,
        refusal: 'locked',
        retryAfterMs: 1,
      });
      // The lock has run out: the count starts again.
      expect(await reserveTimes(3, name, '203.0.113.1', until)).toEqual([
        RESERVED,
        RESERVED,
        RESERVED,
      ]);
      expect(await failures.reserve(name, '203.0.113.1', until)).toEqual(IN_FLIGHT);
    });

    it('should refuse a name past LOGIN_MAX_FAILURES_PER_NAME guesses from all addresses, and give the address its guess back', async () => {
      const name = freshName();
      await reserveTimes(3, name, '198.51.100.1');
      await reserveTimes(2, name, '198.51.100.2');
      expect(await failures.reserve(name, '198.51.100.3', T0)).toEqual(IN_FLIGHT);
      // A success from the first address resets the name's count from every address: the third
      // address has all its guesses, the refused one was not taken from them.
      await failures.succeeded(name, '198.51.100.1', T0);
      expect(await reserveTimes(3, name, '198.51.100.3')).toEqual([RESERVED, RESERVED, RESERVED]);
      expect(await failures.reserve(name, '198.51.100.3', T0)).toEqual(IN_FLIGHT);
    });

    it('should lock the name from every address when the failure that fills its budget fails', async () => {
      const name = freshName();
      await reserveTimes(3, name, '198.51.100.1');
      await reserveTimes(1, name, '198.51.100.2');
      expect(await failures.failed(name, '198.51.100.2', T0)).toBe(false);
      await reserveTimes(1, name, '198.51.100.2');
      expect(await failures.failed(name, '198.51.100.2', T0)).toBe(true);
      expect(await failures.reserve(name, '198.51.100.9', T0 + MINUTE)).toEqual({
        reserved: false,
        refusal: 'locked',
        retryAfterMs: 14 * MINUTE,
      });
    });

    it('should take the guesses of every /64 of one IPv6 /48 from one budget of the name, lock the /48 at its last failure, and leave the name open elsewhere', async () => {
      const name = freshName();
      const nets = ['2001:db8:48:1::/64', '2001:db8:48:2::/64', '2001:db8:48:3::/64'];
      for (const net of nets) {
        expect(await failures.reserve(name, net, T0)).toEqual(RESERVED);
        expect(await failures.failed(name, net, T0)).toBe(net === nets[2]);
      }
      // The /48's lock refuses a fourth /64 of it; the /64's guess was given back.
      const locked = { reserved: false, refusal: 'locked', retryAfterMs: 15 * MINUTE - 1000 };
      expect(await failures.reserve(name, '2001:db8:48:4::/64', T0 + 1000)).toEqual(locked);
      // Three of the name's five are spent: another /48 has its own three, then the name's
      // budget (not the /48's) refuses, in flight.
      expect(await reserveTimes(2, name, '2001:db8:49:1::/64')).toEqual([RESERVED, RESERVED]);
      expect(await failures.reserve(name, '2001:db8:49:1::/64', T0)).toEqual(IN_FLIGHT);
      // A success from the other /48 resets its rows and the name's, not the locked /48's.
      await failures.succeeded(name, '2001:db8:49:1::/64', T0);
      expect(await failures.reserve(name, '2001:db8:48:5::/64', T0 + 1000)).toEqual(locked);
      expect(await failures.reserve(name, '203.0.113.48', T0 + 1000)).toEqual(RESERVED);
    });

    it('should start the count again once its window has run out, not before', async () => {
      const name = freshName();
      await reserveTimes(3, name, '203.0.113.1');
      expect(await failures.reserve(name, '203.0.113.1', T0 + 10 * MINUTE)).toEqual(IN_FLIGHT);
      expect(await failures.reserve(name, '203.0.113.1', T0 + 10 * MINUTE + 1)).toEqual(RESERVED);
    });

    it('should reset the counts of the name from that address and from every address on a success', async () => {
      const name = freshName();
      await reserveTimes(3, name, '203.0.113.1');
      await reserveTimes(1, name, '203.0.113.2');
      await failures.succeeded(name, '203.0.113.1', T0);
      expect(await reserveTimes(3, name, '203.0.113.1')).toEqual([RESERVED, RESERVED, RESERVED]);
      // The other address keeps its own count: 1 taken before, 2 left.
      expect(await reserveTimes(3, name, '203.0.113.2')).toEqual([RESERVED, RESERVED, IN_FLIGHT]);
    });

    it('should count a name however its letters are cased, as the back-office compares names', async () => {
      const name = freshName();
      await reserveTimes(2, name, '203.0.113.1');
      expect(await failures.reserve(name.toUpperCase(), '203.0.113.1', T0)).toEqual(RESERVED);
      expect(
        await failures.reserve(`${name[0].toUpperCase()}${name.slice(1)}`, '203.0.113.1', T0),
      ).toEqual(IN_FLIGHT);
    });

    it('should count the locks in force by scope, a lock that ends now no longer', async () => {
      const before = await failures.locksInForce(T0 + 2 * MINUTE);
      const name = freshName();
      await reserveTimes(3, name, '192.0.2.1');
      await reserveTimes(2, name, '192.0.2.2');
      for (let i = 0; i < 3; i++) await failures.failed(name, '192.0.2.1', T0 + MINUTE);
      for (let i = 0; i < 2; i++) await failures.failed(name, '192.0.2.2', T0 + MINUTE);
      const now = T0 + 2 * MINUTE;
      expect(await failures.locksInForce(now)).toEqual({
        address: before.address + 1,
        name: before.name + 1,
      });
      const after = await failures.locksInForce(T0 + MINUTE + 15 * MINUTE);
      expect(after).toEqual({ address: 0, name: 0 });
    });

    it("should reserve with one statement per budget once the name has its rows, and make them on the name's first attempt", async () => {
      const sent: string[] = [];
      const counted = new LoginFailuresRepository(
        troubled(database.db, (sql) => void sent.push(sql.replace(/\s+/g, ' '))).db,
        config,
      );
      const take = /^UPDATE api_login_failures SET failure_count = CASE .* failure_count \+ 1 END/;
      const name = freshName();
      // The first attempt: a take that finds no row, the two rows made, one take per budget.
      expect(await counted.reserve(name, '203.0.113.1', T0)).toEqual(RESERVED);
      expect(sent).toEqual([
        expect.stringMatching(take),
        expect.stringMatching(/^INSERT .*INTO api_login_failures/),
        expect.stringMatching(take),
        expect.stringMatching(take),
      ]);
      await counted.succeeded(name, '203.0.113.1', T0);
      // Every later one: one take per budget, nothing else.
      sent.length = 0;
      expect(await counted.reserve(name, '203.0.113.1', T0 + MINUTE)).toEqual(RESERVED);
      expect(sent).toEqual([expect.stringMatching(take), expect.stringMatching(take)]);
      // A refusal reads the rows to say why: the take, the rows (made already), the take again.
      await reserveTimes(2, name, '203.0.113.1', T0 + MINUTE);
      sent.length = 0;
      expect(await counted.reserve(name, '203.0.113.1', T0 + MINUTE)).toEqual(IN_FLIGHT);
      expect(sent).toEqual([
        expect.stringMatching(take),
        expect.stringMatching(/^INSERT .*INTO api_login_failures/),
        expect.stringMatching(take),
        expect.stringMatching(/^SELECT .* FROM api_login_failures/),
      ]);
    });

    it("should start the name's count from every address again once its lock has run out, and wait for an address's guesses in flight until then", async () => {
      // A window longer than the lock: the address's own count outlives the name's lock.
      const longWindow = new LoginFailuresRepository(
        database.db,
        loadConfig({
          APP_ENV: 'development',
          LOGIN_MAX_FAILURES: '3',
          LOGIN_MAX_FAILURES_PER_NAME: '5',
          LOGIN_FAILURE_WINDOW_MINUTES: '30',
          LOGIN_LOCKOUT_MINUTES: '15',
        }),
      );
      const name = freshName();
      for (let i = 0; i < 3; i++) await longWindow.reserve(name, '198.51.100.1', T0);
      for (let i = 0; i < 2; i++) await longWindow.reserve(name, '198.51.100.2', T0);
      expect(await longWindow.failed(name, '198.51.100.2', T0)).toBe(true);
      const until = T0 + 15 * MINUTE;
      // The first address's three guesses are still in flight when the name's lock runs out.
      expect(await longWindow.reserve(name, '198.51.100.1', until)).toEqual(IN_FLIGHT);
      expect(await longWindow.reserve(name, '198.51.100.1', until - 1)).toEqual({
        reserved: false,
        refusal: 'locked',
        retryAfterMs: 1,
      });
      // Another address: the name's count starts again with it.
      expect(await longWindow.reserve(name, '198.51.100.3', until)).toEqual(RESERVED);
      expect(await longWindow.reserve(name, '198.51.100.2', until)).toEqual(RESERVED);
    });

    // The purge's DELETE is the same statement on both databases; a thousand reservations take
    // a second in memory and twenty on MariaDB, so it is proved on SQLite.
    const sqliteOnly = kind === 'sqlite' ? it : () => undefined;
    sqliteOnly(
      'should delete the rows whose window and lock have run out, once in a thousand reservations',
      async () => {
        const count = async () =>
          Number(
            (
              await database.db.query<Array<{ n: number | string }>>(
                'SELECT COUNT(*) AS n FROM api_login_failures',
              )
            )[0].n,
          );
        const late = T0 + 24 * 60 * MINUTE;
        const name = freshName();
        const rowsBefore = await count();
        expect(rowsBefore).toBeGreaterThan(0);
        // The repository's own count of reservations: a fresh one purges on its 1000th.
        const fresh = new LoginFailuresRepository(database.db, config);
        for (let i = 0; i < 999; i++) await fresh.reserve(name, `10.0.${i >> 8}.${i & 255}`, late);
        expect(await count()).toBe(rowsBefore + 1000);
        expect(await fresh.reserve(freshName(), '10.9.9.9', late)).toEqual(RESERVED);
        // Only the rows of this test's minute are left: its 999 addresses and the name, and the last.
        expect(await count()).toBe(1000 + 2);
      },
      60_000,
    );

    // Only MariaDB makes a statement wait on a row lock while it holds a pooled connection.
    const mariadbOnly = kind === 'mysql' ? it : () => undefined;
    mariadbOnly(
      'should hold at most its share of the pool while a burst of sign-ins waits on a row lock, so a read still gets a connection',
      async () => {
        const name = freshName();
        const client = '203.0.113.7';
        // The spec database's pool has 10 connections: the token route's share is 2.
        const share = SignInConnections.ofPool(10);
        const bounded = new LoginFailuresRepository(database.db, config, share);
        await bounded.reserve(name, client, T0);
        await bounded.succeeded(name, client, T0);
        // Another session holds the name's two rows, as a burst's first statements hold them.
        const holder = database.db.createQueryRunner();
        await holder.startTransaction();
        let burst: Array<Promise<Reservation>> = [];
        try {
          await holder.query('SELECT * FROM api_login_failures WHERE username_key = ? FOR UPDATE', [
            name,
          ]);
          burst = Array.from({ length: 16 }, () => bounded.reserve(name, client, T0));
          // Until every statement let through holds a connection, waiting for the rows (the
          // pool's 10 less the holder's: 9 at most), as the server itself lists them.
          const waitingOnRows = async () =>
            Number(
              (
                await holder.query(
                  `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
                    WHERE DB = DATABASE() AND COMMAND = 'Query' AND ID <> CONNECTION_ID()`,
                )
              )[0].n,
            );
          for (let i = 0; i < 100; i++) {
            if ((await waitingOnRows()) >= Math.min(share.stats().held, 9)) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          const read = database.db.query('SELECT 1 AS one').then(() => 'answered');
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise(
            (resolve) => (timer = setTimeout(resolve, 3_000, 'no connection')),
          );
          expect(await Promise.race([read, timeout])).toBe('answered');
          clearTimeout(timer);
          expect(share.stats()).toEqual({ held: 2, waiting: 14, peak: 2 });
        } finally {
          await holder.rollbackTransaction();
          await holder.release();
        }
        // Once the rows are free the burst is reserved as before: three guesses, the rest refused.
        const outcomes = await Promise.all(burst);
        expect(outcomes.filter((o) => o.reserved)).toHaveLength(3);
        expect(outcomes).toContainEqual(IN_FLIGHT);
      },
      30_000,
    );
  });
}

/**
 * The database as the repository sees it, with what happens under load on MariaDB: a statement
 * chosen as a deadlock victim (errno 1213), or a purge of another instance between two steps.
 */
function troubled(
  db: DataSource,
  before: (sql: string) => Promise<void> | void,
): { db: DataSource; released: () => number; taken: () => number } {
  let taken = 0;
  let released = 0;
  const proxy = Object.create(db) as DataSource;
  proxy.createQueryRunner = (): QueryRunner => {
    const runner = db.createQueryRunner();
    taken++;
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    const release = runner.release.bind(runner);
    // SQLite hands out one runner for its one connection: wrap it, never change it.
    return Object.assign(Object.create(runner) as QueryRunner, {
      query: async (sql: string, ...rest: unknown[]) => {
        await before(sql);
        return query(sql, ...rest);
      },
      release: () => {
        released++;
        return release();
      },
    });
  };
  return { db: proxy, released: () => released, taken: () => taken };
}

const deadlock = () => Object.assign(new Error('Deadlock found'), { driverError: { errno: 1213 } });

describe(`${LoginFailuresRepository.name} under contention`, () => {
  const [sqlite] = databaseKinds();
  let database: MigratedDatabase;

  beforeAll(async () => {
    database = await sqlite.open();
  });
  afterAll(async () => {
    await database.close();
  });

  it('should run a statement chosen as a deadlock victim again, and give every connection back', async () => {
    let victims = 4;
    const db = troubled(database.db, (sql) => {
      if (sql.includes('failure_count + 1') && victims > 0) {
        victims--;
        throw deadlock();
      }
    });
    const failures = new LoginFailuresRepository(db.db, config);
    expect(await failures.reserve('deadlocked', '203.0.113.1', T0)).toEqual(RESERVED);
    expect(victims).toBe(0);
    expect(db.released()).toBe(db.taken());
  });

  it('should give up after five deadlocks in a row, and pass any other error on at once', async () => {
    let attempts = 0;
    const always = troubled(database.db, (sql) => {
      if (sql.includes('failure_count + 1')) {
        attempts++;
        throw deadlock();
      }
    });
    await expect(
      new LoginFailuresRepository(always.db, config).reserve('victim', '203.0.113.1', T0),
    ).rejects.toThrow('Deadlock found');
    expect(attempts).toBe(5);
    expect(always.released()).toBe(always.taken());

    attempts = 0;
    const broken = troubled(database.db, (sql) => {
      if (sql.includes('failure_count + 1')) {
        attempts++;
        throw Object.assign(new Error('Lock wait timeout'), { driverError: { errno: 1205 } });
      }
    });
    await expect(
      new LoginFailuresRepository(broken.db, config).reserve('victim', '203.0.113.1', T0),
    ).rejects.toThrow('Lock wait timeout');
    expect(attempts).toBe(1);
  });

  it("should reserve again when another instance's purge deleted the rows between its steps", async () => {
    let purges = 1;
    const db = troubled(database.db, async (sql) => {
      if (sql.includes('failure_count + 1') && purges > 0) {
        purges--;
        await database.db.query('DELETE FROM api_login_failures');
      }
    });
    const failures = new LoginFailuresRepository(db.db, config);
    expect(await failures.reserve('purged', '203.0.113.1', T0)).toEqual(RESERVED);
  });

  it("should reserve again when another instance's purge deleted the name's row between its two takes", async () => {
    const failures = new LoginFailuresRepository(database.db, config);
    await failures.reserve('purged-between', '203.0.113.1', T0);
    let takes = 0;
    const db = troubled(database.db, async (sql) => {
      // The second take (the name's budget): its row is gone, the address's taken.
      if (sql.includes('failure_count + 1') && ++takes === 2) {
        await database.db.query('DELETE FROM api_login_failures WHERE client_key = ?', ['']);
      }
    });
    const again = new LoginFailuresRepository(db.db, config);
    expect(await again.reserve('purged-between', '203.0.113.1', T0)).toEqual(RESERVED);
    // Both rows are back, each counting this attempt (the address's given back once, then taken).
    const rows = await database.db.query<Array<{ client_key: string; failure_count: number }>>(
      `SELECT client_key, failure_count FROM api_login_failures
        WHERE username_key = ? ORDER BY client_key`,
      ['purged-between'],
    );
    expect(rows.map((r) => [r.client_key, Number(r.failure_count)])).toEqual([
      ['', 1],
      ['203.0.113.1', 2],
    ]);
  });
});
