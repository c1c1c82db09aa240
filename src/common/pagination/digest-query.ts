import { MAX_DIGEST_DAYS } from '../../config/limits';
import { parameterError, QueryParameter, readQuery } from './query-declaration';
import type { RawQuery } from './query-parameters';
import { PAGE_QUERY } from './page-query';
import { DIGEST_VERSIONS, type DigestVersion, NEWEST_DIGEST_VERSION } from './digest-versions';

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const DATE = new RegExp(DATE_PATTERN);

/** The digest a request asks for: one shop, and every date of the period in order. */
export interface DigestQuery {
  shopCode: string;
  /** `YYYY-MM-DD`, From inclusive to To exclusive; empty when From equals To. */
  dates: string[];
  /** The period as the list reads it: From's midnight (inclusive), To's midnight (exclusive). */
  from: string;
  to: string;
  /** The digest version its checksums follow (docs/sync.md, "Digest versions"). */
  version: DigestVersion;
}

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Milliseconds since the epoch of a `YYYY-MM-DD`, or a 400 naming the parameter. */
function dateValue(value: string, name: string): number {
  if (!DATE.test(value)) throw parameterError(name, 'must be a date YYYY-MM-DD');
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || Number(value.slice(0, 4)) < 1000 || isoDate(ms) !== value) {
    throw parameterError(name, `is not a possible date: ${value}`);
  }
  return ms;
}

function dateParameter(role: string, example: string): QueryParameter<number, true> {
  return {
    required: true,
    shape: 'a shop-local date YYYY-MM-DD',
    description:
      `${role} A shop-local calendar date \`YYYY-MM-DD\` (no time, no zone); ` +
      `From and To at most ${MAX_DIGEST_DAYS} days apart.`,
    schema: { type: 'string', format: 'date', pattern: DATE_PATTERN, maxLength: 10 },
    example,
    parse: (value, name) => dateValue(value, name),
  };
}

/** The query parameters of the three digests: the parser and the document's. */
export const DIGEST_QUERY = {
  ShopCode: {
    ...PAGE_QUERY.ShopCode,
    required: true as const,
    description:
      'Shop to digest (required: a digest is of one shop). A shop outside the token claims ' +
      'yields `{"data": []}` (200), never data of another shop.',
  },
  From: dateParameter('First date of the period, inclusive.', '2026-03-01'),
  To: dateParameter('End of the period, exclusive: the day after the last date.', '2026-04-01'),
  Version: {
    required: false,
    shape: `a digest version, ${DIGEST_VERSIONS.join(' or ')}`,
    description:
      'The digest version whose fields the checksums cover (docs/sync.md, "Digest versions"): ' +
      `${DIGEST_VERSIONS.join(' or ')}; absent: the newest, ${NEWEST_DIGEST_VERSION}. A copy ` +
      'verifies with the version it was built on, and moves to a newer one on purpose.',
    schema: { type: 'integer', enum: [...DIGEST_VERSIONS] },
    example: NEWEST_DIGEST_VERSION,
    parse: (value: string, name: string): DigestVersion => {
      const version = DIGEST_VERSIONS.find((v) => String(v) === value);
      if (version === undefined) {
        throw parameterError(name, `must be one of ${DIGEST_VERSIONS.join(', ')}`);
      }
      return version;
    },
  } satisfies QueryParameter<DigestVersion, false>,
};

/**
 * The digest a request asks for. To before From, or a period longer than MAX_DIGEST_DAYS, is a
 * 400 naming the parameter; From equal to To is an empty period (no date).
 */
export function parseDigestQuery(raw: RawQuery): DigestQuery {
  const q = readQuery(raw, DIGEST_QUERY);
  if (q.To < q.From) throw parameterError('To', 'must not be before From');
  const days = (q.To - q.From) / DAY_MS;
  if (days > MAX_DIGEST_DAYS) {
    throw parameterError('To', `must be at most ${MAX_DIGEST_DAYS} days after From`);
  }
  const dates = Array.from({ length: days }, (_, i) => isoDate(q.From + i * DAY_MS));
  return {
    shopCode: q.ShopCode,
    dates,
    from: midnight(isoDate(q.From)),
    to: midnight(isoDate(q.To)),
    version: q.Version ?? NEWEST_DIGEST_VERSION,
  };
}

/** A date's midnight in the stored form of the sources' time columns. */
const midnight = (date: string): string => `${date} 00:00:00.000`;

/** The stored-form period of the query's `index`th date: its midnight to the next date's. */
export function dayBounds(query: DigestQuery, index: number): { from: string; to: string } {
  const next = index + 1 < query.dates.length ? midnight(query.dates[index + 1]) : query.to;
  return { from: midnight(query.dates[index]), to: next };
}
