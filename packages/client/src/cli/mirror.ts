import type { PosReadClient } from '../client.js';
import type { MirrorEvent } from '../mirror/feeds.js';
import type { MirrorSummary } from '../mirror/mirror.js';
import { type Io, UsageError, write } from './io.js';
import { hasSecretParameter, plainTextWarning } from '../mirror/transport-security.js';
import { terminalSafe } from './terminal-text.js';

/** The options of `pos-read mirror` and `pos-read verify` (with --shop, --limit, --progress). */
export const MIRROR_OPTIONS = {
  into: { type: 'string' },
  window: { type: 'string' },
  follow: { type: 'boolean', default: false },
  'reconcile-every': { type: 'string' },
  'newest-digests': { type: 'boolean', default: false },
  by: { type: 'string' },
} as const;

export interface MirrorValues {
  into?: string;
  window?: string;
  follow: boolean;
  'reconcile-every'?: string;
  'newest-digests'?: boolean;
  by?: string;
  shop?: string[];
  from?: string;
  to?: string;
  limit?: string;
  progress?: boolean;
}

/** `mirror --follow` stopped by SIGINT (Ctrl-C): exit 130, through `npm run` too. */
export class FollowInterrupted extends Error {
  override name = 'FollowInterrupted';
}

/** `pos-read verify` found days that differ (exit code 8). */
export class DaysDifferError extends Error {
  override name = 'DaysDifferError';
}

function whole(value: string | undefined, name: string, min: number, max: number) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} is a whole number from ${min} to ${max}`);
  }
  return n;
}

/** --from and --to of mirror and verify: a closed period, dates, both or neither. */
function periodOf(values: MirrorValues): { from: string; to: string } | undefined {
  const { from, to } = values;
  if (from === undefined && to === undefined) return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (!from || !to || !date.test(from) || !date.test(to) || from >= to) {
    throw new UsageError(
      '--from and --to go together, dates YYYY-MM-DD, --from before --to (exclusive)',
    );
  }
  return { from, to };
}

/**
 * The database's password from the environment (never the command line): PGPASSWORD, which
 * node-postgres reads itself, or MYSQL_PWD, put into the URL here as mysql2 does not read it.
 */
function intoWithPassword(into: string, env: Io['env']): string {
  const password = env.MYSQL_PWD;
  if (!/^(mysql|mariadb):\/\//i.test(into) || !password) return into;
  const url = new URL(into);
  url.password = password;
  return url.toString();
}

/**
 * The progress line: feed pages and records, days re-read; rewritten in place on a TTY, one line
 * per step to a file or a pipe (no carriage returns in a log).
 */
function progressOf(io: Io, enabled: boolean) {
  const totals = { pages: 0, records: 0, days: 0 };
  const tty = io.stderr.isTTY === true;
  const show = (end = '') => {
    if (!enabled) return;
    const { pages, records, days } = totals;
    const line = `mirror: ${pages} pages, ${records} records, ${days} days re-read`;
    io.stderr.write(tty ? `\r${line}${end}` : `${line}\n`);
  };
  return {
    onEvent: (event: MirrorEvent) => {
      if (event.type === 'warning') {
        // Always shown, on a line of its own (it comes when the file opens, before progress).
        io.stderr.write(`pos-read: warning: ${terminalSafe(event.message)}\n`);
        return;
      }
      if (event.type === 'following') {
        if (enabled) {
          io.stderr.write(
            `${tty ? '\n' : ''}mirror: caught up, following (Ctrl-C or SIGTERM stops)\n`,
          );
        }
        return;
      }
      if (event.type === 'page') {
        totals.pages += 1;
        totals.records += event.records;
      } else if (event.repaired) totals.days += 1;
      show();
    },
    done: () => show('\n'),
  };
}

function summaryText(summary: MirrorSummary): string {
  const rows = Object.entries(summary.rows)
    .map(([table, count]) => `${table} ${count}`)
    .join(', ');
  return (
    `rows: ${rows}\n` +
    `${summary.daysChecked} days checked, ${summary.daysRepaired} days repaired, ` +
    `${summary.records} records from the feeds\n`
  );
}

/** `pos-read mirror` and `pos-read verify`. */
export async function mirrorCommand(
  client: PosReadClient,
  io: Io,
  name: 'mirror' | 'verify',
  values: MirrorValues,
): Promise<void> {
  if (!values.into) {
    throw new UsageError(`${name} needs --into FILE.sqlite, postgres://… or mysql://…`);
  }
  if (/^[a-z]+:\/\/[^/@]*:[^/@]*@/i.test(values.into) || hasSecretParameter(values.into)) {
    throw new UsageError(
      'a password in --into is refused (user:password@ or ?password=: other users can read the ' +
        'command line with ps): set ' +
        'PGPASSWORD for PostgreSQL, MYSQL_PWD for MySQL and MariaDB',
      false,
    );
  }
  if (name === 'verify' && values.follow) throw new UsageError('verify does not --follow');
  const plainText = plainTextWarning(values.into);
  if (plainText) io.stderr.write(`pos-read: warning: ${plainText}\n`);
  const period = periodOf(values);
  if (period && values.follow)
    throw new UsageError('--from/--to is a period checked once: no --follow');
  if (period && values.window !== undefined) throw new UsageError('give --window or --from/--to');
  const by = values.by ?? 'calendar-date';
  if (by !== 'calendar-date' && by !== 'business-date') {
    throw new UsageError('--by is calendar-date (the default) or business-date');
  }
  const progress = progressOf(io, values.progress ?? io.stderr.isTTY === true);
  const summary = await client.mirror({
    shops: values.shop,
    into: intoWithPassword(values.into, io.env),
    window: whole(values.window, 'window', 1, 91),
    period,
    follow: values.follow,
    reconcileEvery: whole(values['reconcile-every'], 'reconcile-every', 1, 86_400),
    limit: whole(values.limit, 'limit', 1, 500),
    verifyOnly: name === 'verify',
    newestDigests: values['newest-digests'] === true,
    by,
    signal: io.signal,
    onEvent: progress.onEvent,
  });
  progress.done();
  if (name === 'verify') {
    for (const day of summary.differing) {
      // The shop code is the server's text: escaped whether or not the output is a terminal.
      await write(
        io.stdout,
        terminalSafe(
          `${day.resource} ${day.shop} ${day.date}: server ${day.server.count} records, ` +
            `mirror ${day.mirror.count}`,
        ) + '\n',
      );
    }
    await write(
      io.stderr,
      `${summary.daysChecked} days checked, ${summary.differing.length} differ\n`,
    );
    if (summary.differing.length > 0) {
      throw new DaysDifferError(`${summary.differing.length} days differ from the server`);
    }
    return;
  }
  await write(io.stderr, summaryText(summary));
  const reason = (io.signal?.reason as { message?: unknown } | undefined)?.message;
  if (values.follow && reason === 'SIGINT') {
    throw new FollowInterrupted(
      'stopped by Ctrl-C (SIGINT): every page written is committed; `mirror` goes on from there',
    );
  }
}
