import { TABLES } from '../mirror/schema.js';

/** `export sales|payments|cash-movements`: every resource an export reads, from the document. */
const EXPORT = `export ${TABLES.map((t) => t.resource).join('|')}`;

export const USAGE = `Usage: pos-read <command> [options]

Commands:
  ${EXPORT.padEnd(36)}  every record of a period, following the cursor
      [--shop S001] [--from 2026-03-01] [--to 2026-04-01] [--format ndjson|csv] [--out FILE]
      [--force] [--resume] [--limit 1..500] [--progress] [--concurrency 1..16]
      [--csv-excel] [--decimal-comma] [--lines]
                                        output: standard output unless --out FILE; an existing
                                        FILE is replaced only with --force
                                        --csv-excel: BOM and ; (spreadsheets); --decimal-comma:
                                        12,50; --lines (sales): one row per sale line
      --format parquet --out DIR --from D --to D [--shop S001]
                                        one Parquet file per shop and business day (README, Parquet)
  report --from D --to D [--shop S001] [--csv] [--out FILE]
                                        TransactionDetailReport (JSON, or CSV with --csv)
  days --shop S001 --from D --to D [--format table|csv|json] [--out FILE]
                                        the day close by business date (a table on a terminal,
                                        CSV otherwise; --csv-excel, --decimal-comma)
  shops                                 the shops the user may read (one JSON object a line)
  token [--show]                        issues a token, prints its expiry (--show: the token)
  mirror --into FILE.sqlite|postgres://…|mysql://… [--shop S001 ...]
      [--window 1..91 | --from D --to D] [--follow] [--reconcile-every S] [--newest-digests]
      [--by calendar-date|business-date]
                                        keeps a copy of the shops exact (README, Mirror)
  verify --into FILE.sqlite|postgres://…|mysql://… [--shop S001 ...]
      [--window 1..91 | --from D --to D] [--by calendar-date|business-date]
                                        prints each table and day where the copy differs
                                        from the server (every table, sessions included)
                                        (--by business-date: the days of businessDate)

Options:
  --base-url URL      the service (default: POS_READ_BASE_URL, else http://localhost:3000);
                      https://, or http:// on loopback only
  --allow-insecure-http
                      allow an http:// base URL on the network (password in clear text)
  --password-stdin    read the password from the first line of standard input

Credentials: POS_READ_USERNAME, and POS_READ_PASSWORD or --password-stdin. Never on the
command line: other users of the machine can read it (ps).

Dates are shop-local, without a zone: 2026-03-01 or 2026-03-01T06:30:00 (From inclusive,
To exclusive). --resume (with --out) goes on with an interrupted export from its state file
FILE.pos-read-resume.json. Without --shop, export walks the shops --concurrency at a time
(each shop in time order, their pages interleaved); the default, 1, is one walk of every
shop in time order. Progress goes to standard error when it is a terminal
(--progress: always; one line per step when it is not a terminal). --shop is a code of the token's, exactly. mirror and verify without
--shop use the shops the copy recorded. The database's password: PGPASSWORD or MYSQL_PWD,
never in --into.

Exit codes: 0 done, 1 failed, 2 usage, 3 authentication failed (401), 4 forbidden (403),
5 rate limited (429), 6 service unavailable or unreachable, 7 other refusal (400...),
8 verify: days differ, 9 the mirror's file or database cannot be used (not a mirror, newer,
another copy, unreachable, disk full, no driver), 10 --shop is not a shop of the token,
130 interrupted (Ctrl-C, mirror --follow too; SIGTERM stops a follow with 0).
`;
