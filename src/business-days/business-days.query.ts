import { MAX_DIGEST_DAYS } from '../config/limits';
import { DIGEST_QUERY } from '../common/pagination/digest-query';
import { type DigestVersion, NEWEST_DIGEST_VERSION } from '../common/pagination/digest-versions';
import { parameterError, readQuery } from '../common/pagination/query-declaration';
import type { RawQuery } from '../common/pagination/query-parameters';
import { addDays } from './day-close';

/** A close: one shop, every business date of the period in order, the digests' version. */
export interface BusinessDaysQuery {
  shopCode: string;
  /** `YYYY-MM-DD`, From inclusive to To exclusive; empty when From equals To. */
  dates: string[];
  version: DigestVersion;
}

const DAY_MS = 24 * 60 * 60 * 1000;

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
    description:
      `First business date, inclusive: \`YYYY-MM-DD\` (no time, no zone); From and To at most ` +
      `${MAX_DIGEST_DAYS} days apart.`,
  },
  To: {
    ...DIGEST_QUERY.To,
    description: 'End of the period, exclusive: the day after the last business date.',
  },
  Version: {
    ...DIGEST_QUERY.Version,
    description:
      'The digest version of `digests` (docs/sync.md, "Digest versions"), as the digest ' +
      `endpoints take it; absent: the newest, ${NEWEST_DIGEST_VERSION}.`,
  },
};

/** The close a request asks for; To before From or more than MAX_DIGEST_DAYS days: a 400. */
export function parseBusinessDaysQuery(raw: RawQuery): BusinessDaysQuery {
  const q = readQuery(raw, BUSINESS_DAYS_QUERY);
  if (q.To < q.From) throw parameterError('To', 'must not be before From');
  const days = (q.To - q.From) / DAY_MS;
  if (days > MAX_DIGEST_DAYS) {
    throw parameterError('To', `must be at most ${MAX_DIGEST_DAYS} days after From`);
  }
  const first = new Date(q.From).toISOString().slice(0, 10);
  return {
    shopCode: q.ShopCode,
    dates: Array.from({ length: days }, (_, i) => addDays(first, i)),
    version: q.Version ?? NEWEST_DIGEST_VERSION,
  };
}
