import { MAX_DIGEST_DAYS } from '../../config/limits';
import {
  businessDateParameter,
  businessDatesOf,
  DATE_PATTERN,
  DAY_MS,
  dateValue,
  isoDate,
  midnight,
  requiredPeriod,
} from '../../common/query/filter-parameters';
import { parameterError, QueryParameter, readQuery } from '../../common/query/query-declaration';
import type { RawQuery } from '../../common/query/query-parameters';
import { PAGE_QUERY } from '../paging/page-query';
import {
  DIGEST_VERSIONS,
  type DigestVersion,
  NEWEST_DIGEST_VERSION,
} from '../../catalogue/digest-versions';

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
  /**
   * true: `dates` are business dates (BusinessDateFrom/To), each the records whose
   * `businessDate` it is; false: calendar dates of the records' time (From/To).
   */
  byBusinessDate: boolean;
}

function dateParameter(role: string, example: string): QueryParameter<number, false> {
  return {
    required: false,
    shape: 'a shop-local date YYYY-MM-DD',
    description:
      `${role} A shop-local calendar date \`YYYY-MM-DD\` (no time, no zone); ` +
      `From and To at most ${MAX_DIGEST_DAYS} days apart. Required unless BusinessDateFrom ` +
      'and BusinessDateTo are given instead.',
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
  BusinessDateFrom: businessDateParameter(
    'First business date, inclusive: one entry per business date, each of the records whose ' +
      '`businessDate` it is.',
  ),
  BusinessDateTo: businessDateParameter(
    `End of the business dates, exclusive; at most ${MAX_DIGEST_DAYS} days after BusinessDateFrom.`,
  ),
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
 * The digest a request asks for: From and To, or BusinessDateFrom and BusinessDateTo (both
 * pairs, half a pair or neither is a 400). To before From, or a period longer than
 * MAX_DIGEST_DAYS, is a 400 naming the parameter; From equal to To is an empty period (no date).
 */
export function parseDigestQuery(raw: RawQuery): DigestQuery {
  const q = readQuery(raw, DIGEST_QUERY);
  const given = {
    From: q.From === undefined ? undefined : isoDate(q.From),
    To: q.To === undefined ? undefined : isoDate(q.To),
  };
  const business = businessDatesOf({ ...q, ...given }, MAX_DIGEST_DAYS);
  const [fromMs, toMs] = business
    ? [dateValue(business.from, 'BusinessDateFrom'), dateValue(business.to, 'BusinessDateTo')]
    : requiredPeriod(q.From, q.To, 'a date YYYY-MM-DD');
  if (toMs < fromMs) throw parameterError('To', 'must not be before From');
  const days = (toMs - fromMs) / DAY_MS;
  if (days > MAX_DIGEST_DAYS) {
    throw parameterError('To', `must be at most ${MAX_DIGEST_DAYS} days after From`);
  }
  const dates = Array.from({ length: days }, (_, i) => isoDate(fromMs + i * DAY_MS));
  return {
    shopCode: q.ShopCode,
    dates,
    from: midnight(isoDate(fromMs)),
    to: midnight(isoDate(toMs)),
    version: q.Version ?? NEWEST_DIGEST_VERSION,
    byBusinessDate: business !== null,
  };
}

/** The stored-form period of the query's `index`th date: its midnight to the next date's. */
export function dayBounds(query: DigestQuery, index: number): { from: string; to: string } {
  const next = index + 1 < query.dates.length ? midnight(query.dates[index + 1]) : query.to;
  return { from: midnight(query.dates[index]), to: next };
}
