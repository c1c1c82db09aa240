import { MAX_DIGEST_DAYS } from '../config/limits';
import { DIGEST_QUERY, parseDigestQuery } from '../sync/digest/digest-query';
import { type DigestVersion, NEWEST_DIGEST_VERSION } from '../catalogue/digest-versions';
import { readQuery } from '../common/query/query-declaration';
import type { RawQuery } from '../common/query/query-parameters';

/** A close: one shop, every business date of the period in order, the digests' version. */
export interface BusinessDaysQuery {
  shopCode: string;
  /** `YYYY-MM-DD`, From inclusive to To exclusive; empty when From equals To. */
  dates: string[];
  version: DigestVersion;
}

/**
 * The parameters of GET /business-days: the digests' (a date is parsed and refused alike), with
 * the business-date wording.
 */
export const BUSINESS_DAYS_QUERY = {
  ShopCode: {
    ...DIGEST_QUERY.ShopCode,
    description:
      'Shop to close (required: a close is of one shop). A shop outside the token claims yields ' +
      '`{"version": …, "data": []}` (200), never data of another shop.',
  },
  From: {
    ...DIGEST_QUERY.From,
    required: true as const,
    description:
      `First business date, inclusive: \`YYYY-MM-DD\` (no time, no zone); From and To at most ` +
      `${MAX_DIGEST_DAYS} days apart.`,
  },
  To: {
    ...DIGEST_QUERY.To,
    required: true as const,
    description: 'End of the period, exclusive: the day after the last business date.',
  },
  Version: {
    ...DIGEST_QUERY.Version,
    description:
      'The digest version of `digests` (docs/sync.md, "Digest versions"), as the digest ' +
      `endpoints take it; absent: the newest, ${NEWEST_DIGEST_VERSION}.`,
  },
};

/**
 * The close a request asks for. Its names and values are read by this declaration (a digest's
 * other parameters are unknown here), then the period as the digests make it: To before From, or
 * more than MAX_DIGEST_DAYS days, is a 400 naming To.
 */
export function parseBusinessDaysQuery(raw: RawQuery): BusinessDaysQuery {
  readQuery(raw, BUSINESS_DAYS_QUERY);
  const { shopCode, dates, version } = parseDigestQuery(raw);
  return { shopCode, dates, version };
}
