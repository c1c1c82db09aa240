import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { PosReadClient } from '../client.js';
import {
  AuthenticationError,
  ForbiddenError,
  NetworkError,
  PosReadError,
  RateLimitError,
  ServiceUnavailableError,
  UnknownShopError,
} from '../errors.js';
import { credentialsOf } from './credentials.js';
import { daysCommand, type DaysFormat } from './days.js';
import {
  DEFAULT_EXPORT_CONCURRENCY,
  exportParquet,
  exportRecords,
  MAX_EXPORT_CONCURRENCY,
  openOutput,
  EXPORTED_RESOURCES,
  stateFileOf,
  type ExportedResource,
} from './export.js';
import { EXIT, type Io, UsageError, write } from './io.js';
import { MirrorFileError } from '../mirror/mirror-error.js';
import { SqliteDriverError } from '../mirror/sqlite-driver.js';
import { DaysDifferError, FollowInterrupted, MIRROR_OPTIONS, mirrorCommand } from './mirror.js';
import { counted } from './progress.js';
import { ParquetSetupError } from '../parquet/partitions.js';
import { resumeHint } from './resume-hint.js';
import { forOutput, isTerminal, terminalSafe, terminalStream } from './terminal-text.js';
import { USAGE } from './usage.js';

const OPTIONS = {
  'base-url': { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
  'allow-insecure-http': { type: 'boolean', default: false },
  shop: { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
  limit: { type: 'string' },
  concurrency: { type: 'string' },
  format: { type: 'string' },
  csv: { type: 'boolean', default: false },
  'csv-excel': { type: 'boolean', default: false },
  'decimal-comma': { type: 'boolean', default: false },
  lines: { type: 'boolean', default: false },
  out: { type: 'string' },
  resume: { type: 'boolean', default: false },
  force: { type: 'boolean', default: false },
  progress: { type: 'boolean' },
  show: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  password: { type: 'string' },
  username: { type: 'string' },
  ...MIRROR_OPTIONS,
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

/** The one --shop of a command that reads one shop or all (mirror and verify take several). */
function oneShop(values: Values): string | undefined {
  if ((values.shop?.length ?? 0) > 1) throw new UsageError('give one --shop');
  return values.shop?.[0];
}

/**
 * A --shop of export or report must be one of the token's, compared exactly as the service does:
 * the service answers an empty page for any other, which would pass for "no records".
 */
async function tokenHas(client: PosReadClient, shop: string | undefined, signal?: AbortSignal) {
  if (shop === undefined) return;
  const shops = await client.shops.list({ signal });
  if (!shops.some((s) => s.code === shop)) throw UnknownShopError.of([shop], shops);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `export … --format parquet`: business dates, a folder, none of the CSV or resume options. */
async function exportParquetCommand(
  client: PosReadClient,
  io: Io,
  what: ExportedResource,
  values: Values,
): Promise<void> {
  const out = values.out;
  if (!out) throw new UsageError('--format parquet needs --out DIR (a folder of partitions)');
  const from = required(values, 'from');
  const to = required(values, 'to');
  if (
    !DATE.test(from) ||
    !DATE.test(to) ||
    Number.isNaN(Date.parse(from + 'T00:00:00Z')) ||
    Number.isNaN(Date.parse(to + 'T00:00:00Z'))
  )
    throw new UsageError(
      '--format parquet takes business dates: --from YYYY-MM-DD --to YYYY-MM-DD',
    );
  if (from >= to) throw new UsageError('--from must be before --to (--to is exclusive)');
  for (const option of ['resume', 'lines', 'csv-excel', 'decimal-comma'] as const) {
    if (values[option]) throw new UsageError(`--${option} is not for --format parquet`);
  }
  const shopCode = oneShop(values);
  await tokenHas(client, shopCode, io.signal);
  const totals = await exportParquet(client, io, {
    resource: what,
    shopCode,
    from,
    to,
    out,
    progress: values.progress ?? io.stderr.isTTY === true,
  });
  const { written, unchanged, removed } = totals.partitions;
  await write(
    io.stderr,
    `${counted(totals.records, 'record')} in ${counted(written + unchanged, 'partition')} of ${out}: ` +
      `${written} written, ${unchanged} unchanged, ${removed} removed\n`,
  );
}

/** --concurrency: shops walked at once by an export of every shop (1..MAX_EXPORT_CONCURRENCY). */
function concurrencyOf(values: Values): number {
  const raw = values.concurrency;
  if (raw === undefined) return DEFAULT_EXPORT_CONCURRENCY;
  if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_EXPORT_CONCURRENCY) {
    throw new UsageError(`--concurrency is a whole number from 1 to ${MAX_EXPORT_CONCURRENCY}`);
  }
  return Number(raw);
}

function required(values: Values, name: 'from' | 'to'): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** A refused option of the client (a base URL in clear text) is a usage error: exit 2. */
function usage<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw error instanceof TypeError ? new UsageError(error.message) : error;
  }
}

async function command(io: Io, positionals: string[], values: Values): Promise<void> {
  if (values.password !== undefined || values.username !== undefined) {
    throw new UsageError(
      'credentials are never taken from the command line (other users can read it with ps): ' +
        'set POS_READ_USERNAME, and POS_READ_PASSWORD or --password-stdin',
    );
  }
  const [name, what] = positionals;
  const credentials = await credentialsOf(io, values['password-stdin']);
  const client = usage(
    () =>
      new PosReadClient({
        baseUrl: values['base-url'] ?? io.env.POS_READ_BASE_URL ?? 'http://localhost:3000',
        credentials: () => credentials,
        allowInsecureHttp: values['allow-insecure-http'],
        ...io.client,
      }),
  );
  const signal = io.signal;
  switch (name) {
    case 'shops': {
      for (const shop of await client.shops.list({ signal })) {
        await write(io.stdout, forOutput(io.stdout, JSON.stringify(shop) + '\n'));
      }
      return;
    }
    case 'token': {
      const expiration = await client.tokenExpiration();
      if (values.show) await write(io.stdout, (await client.token()) + '\n');
      await write(values.show ? io.stderr : io.stdout, `expires ${expiration.toISOString()}\n`);
      return;
    }
    case 'report': {
      const query = {
        from: required(values, 'from'),
        to: required(values, 'to'),
        shopCode: oneShop(values),
        signal,
      };
      await tokenHas(client, query.shopCode, signal);
      // The answer first: a refused report leaves an existing --out file as it was.
      const source = values.csv
        ? await client.reports.transactionDetail({ ...query, format: 'csv' })
        : Readable.from([JSON.stringify(await client.reports.transactionDetail(query)) + '\n']);
      // 0600, written beside --out and renamed over it once whole (openOutput).
      if (values.out) {
        const output = await openOutput(values.out, false);
        try {
          // Chunk by chunk (a write stream would hold the file open past the rename).
          for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
            await output.file.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
          }
          await output.commit();
        } finally {
          await output.abandon(false);
        }
      } else if (isTerminal(io.stdout)) await pipeline(source, terminalStream(), io.stdout);
      else await pipeline(source, io.stdout);
      return;
    }
    case 'export': {
      if (!what || !EXPORTED_RESOURCES.includes(what)) {
        throw new UsageError(`export what? ${EXPORTED_RESOURCES.join(', ')}`);
      }
      const format = values['csv-excel'] ? 'csv' : (values.format ?? 'ndjson');
      if (format === 'parquet') return exportParquetCommand(client, io, what, values);
      if (format !== 'ndjson' && format !== 'csv')
        throw new UsageError('--format is ndjson, csv or parquet');
      if (values['decimal-comma'] && format !== 'csv') {
        throw new UsageError('--decimal-comma is for CSV: add --format csv or --csv-excel');
      }
      if (values.lines && what !== 'sales') throw new UsageError('--lines is for export sales');
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      const query = { shopCode: oneShop(values), from: values.from, to: values.to, limit };
      // A resumed export's shop was checked when it started (and --resume asks nothing first).
      const resuming = values.resume && values.out && existsSync(stateFileOf(values.out));
      if (!resuming) await tokenHas(client, query.shopCode, signal);
      const totals = await exportRecords(client, io, {
        resource: what,
        query,
        format,
        style: {
          excel: values['csv-excel'] || undefined,
          decimalComma: values['decimal-comma'] || undefined,
          lines: values.lines || undefined,
        },
        out: values.out,
        resume: values.resume,
        force: values.force,
        progress: values.progress ?? io.stderr.isTTY === true,
        concurrency: concurrencyOf(values),
      });
      const resumed = totals.resumed ? ' (resumed)' : '';
      if (values.out)
        await write(
          io.stderr,
          `${counted(totals.records, 'record')}, ${counted(totals.pages, 'page')} written to ${values.out}${resumed}\n`,
        );
      return;
    }
    case 'days': {
      const shopCode = oneShop(values);
      if (shopCode === undefined) throw new UsageError('days needs --shop (one shop)');
      const from = required(values, 'from');
      const to = required(values, 'to');
      if (!DATE.test(from) || !DATE.test(to))
        throw new UsageError('days takes business dates: --from YYYY-MM-DD --to YYYY-MM-DD');
      const format = values.format;
      if (format !== undefined && !['table', 'csv', 'json'].includes(format))
        throw new UsageError('--format of days is table, csv or json');
      await tokenHas(client, shopCode, signal);
      return daysCommand(client, io, {
        shopCode,
        from,
        to,
        format: (format ?? (values['csv-excel'] ? 'csv' : undefined)) as DaysFormat | undefined,
        style: {
          excel: values['csv-excel'] || undefined,
          decimalComma: values['decimal-comma'] || undefined,
        },
        out: values.out,
      });
    }
    case 'mirror':
    case 'verify':
      return mirrorCommand(client, io, name, values);
    default:
      throw new UsageError(name ? `unknown command ${name}` : 'which command?');
  }
}

/** The message and exit code of a failure: clear on 401, 403 and 429; never the token. */
function failure(error: unknown): { code: number; message: string } {
  if (error instanceof UsageError) {
    const usage = error.showUsage ? `\n\n${USAGE}` : '';
    return { code: EXIT.usage, message: `${error.message}${usage}` };
  }
  if (error instanceof DaysDifferError) return { code: EXIT.differs, message: error.message };
  if (error instanceof ParquetSetupError) return { code: EXIT.usage, message: error.message };
  if (error instanceof FollowInterrupted) return { code: EXIT.interrupted, message: error.message };
  if (error instanceof UnknownShopError) return { code: EXIT.unknownShop, message: error.message };
  if (error instanceof MirrorFileError || error instanceof SqliteDriverError)
    return { code: EXIT.mirrorFile, message: error.message };
  if (error instanceof AuthenticationError) {
    return {
      code: EXIT.unauthorized,
      message: `authentication failed: ${error.message} Check POS_READ_USERNAME and the password; repeated failures lock the account.`,
    };
  }
  if (error instanceof ForbiddenError) {
    return {
      code: EXIT.forbidden,
      message: `forbidden: ${error.message} The user needs the role ApiUser in the back-office application.`,
    };
  }
  if (error instanceof RateLimitError) {
    const wait =
      error.retryAfterSeconds === undefined ? 'later' : `in ${error.retryAfterSeconds} s`;
    return { code: EXIT.rateLimited, message: `rate limited: ${error.message} Try again ${wait}.` };
  }
  if (error instanceof NetworkError) {
    return { code: EXIT.unavailable, message: `cannot reach the service: ${error.message}` };
  }
  if (error instanceof ServiceUnavailableError) {
    return { code: EXIT.unavailable, message: `service unavailable: ${error.message}` };
  }
  if (error instanceof PosReadError)
    return { code: EXIT.refused, message: `refused: ${error.message}` };
  // DOMException is not an Error in every realm: matched by name.
  if ((error as { name?: unknown } | undefined)?.name === 'AbortError')
    return { code: EXIT.interrupted, message: 'interrupted' };
  return {
    code: EXIT.failed,
    message: `failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/** Runs pos-read with its arguments; resolves to the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  let exporting = false;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    if (values.help || positionals.length === 0) {
      await write(io.stdout, USAGE);
      return values.help ? EXIT.ok : EXIT.usage;
    }
    exporting = positionals[0] === 'export' && values.out !== undefined;
    await command(io, positionals, values);
    return EXIT.ok;
  } catch (error) {
    const errorCode = (error as { code?: unknown }).code;
    const isArgError = typeof errorCode === 'string' && errorCode.startsWith('ERR_PARSE_ARGS');
    const { code, message } = failure(
      isArgError ? new UsageError((error as Error).message) : error,
    );
    const hint = code === EXIT.interrupted && exporting ? resumeHint(argv, io.env) : '';
    // A problem's detail is the server's text: never a terminal's command.
    await write(io.stderr, `pos-read: ${terminalSafe(message)}\n${hint}`);
    return code;
  }
}
