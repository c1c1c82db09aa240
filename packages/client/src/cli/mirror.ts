import type { PosReadClient } from '../client.js';
import type { MirrorEvent } from '../mirror/feeds.js';
import type { MirrorSummary } from '../mirror/mirror.js';
import { type Io, UsageError, write } from './io.js';
import { terminalSafe } from './terminal-text.js';

/** The options of `pos-read mirror` and `pos-read verify` (with --shop, --limit, --progress). */
export const MIRROR_OPTIONS = {
  into: { type: 'string' },
  window: { type: 'string' },
  follow: { type: 'boolean', default: false },
  'reconcile-every': { type: 'string' },
} as const;

export interface MirrorValues {
  into?: string;
  window?: string;
  follow: boolean;
  'reconcile-every'?: string;
  shop?: string[];
  limit?: string;
  progress?: boolean;
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

/** The progress line: feed pages and records, days re-read; rewritten in place on a TTY. */
function progressOf(io: Io, enabled: boolean) {
  const totals = { pages: 0, records: 0, days: 0 };
  const show = (end = '') => {
    if (!enabled) return;
    const { pages, records, days } = totals;
    io.stderr.write(`\rmirror: ${pages} pages, ${records} records, ${days} days re-read${end}`);
  };
  return {
    onEvent: (event: MirrorEvent) => {
      if (event.type === 'warning') {
        // Always shown, on a line of its own (it comes when the file opens, before progress).
        io.stderr.write(`pos-read: warning: ${terminalSafe(event.message)}\n`);
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
  if (!values.into) throw new UsageError(`${name} needs --into FILE.sqlite`);
  if (name === 'verify' && values.follow) throw new UsageError('verify does not --follow');
  const progress = progressOf(io, values.progress ?? io.stderr.isTTY === true);
  const summary = await client.mirror({
    into: values.into,
    shops: values.shop,
    window: whole(values.window, 'window', 1, 91),
    follow: values.follow,
    reconcileEvery: whole(values['reconcile-every'], 'reconcile-every', 1, 86_400),
    limit: whole(values.limit, 'limit', 1, 500),
    verifyOnly: name === 'verify',
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
}
