import { badRequest } from '../common/errors/problem';
import type { StoredDateTime } from '../common/local-date-time';
import {
  businessDateParameter,
  type BusinessDates,
  businessDatesOf,
  checkPeriod,
  requiredPeriod,
  FROM_EXAMPLE,
  localDateTimeParameter,
  shopCodeParameter,
  TO_EXAMPLE,
} from '../common/query/filter-parameters';
import { readQuery } from '../common/query/query-declaration';
import type { RawQuery } from '../common/query/query-parameters';
import { MAX_REPORT_DAYS } from '../config/limits';

export interface ReportQuery {
  shopCode: string | null;
  /** Inclusive, stored form (by business date: BusinessDateFrom's midnight). */
  from: StoredDateTime;
  /** Exclusive, stored form (by business date: BusinessDateTo's midnight). */
  to: StoredDateTime;
  /** BusinessDateFrom and BusinessDateTo: the sales whose businessDate is in them; null: by time. */
  businessDates?: BusinessDates | null;
}

/**
 * The report's query parameters: the parser and the document's. From and To, or
 * BusinessDateFrom and BusinessDateTo, are required.
 */
export const REPORT_QUERY = {
  ShopCode: shopCodeParameter('an empty report'),
  From: localDateTimeParameter({
    required: false,
    role: 'Start of the period, inclusive. Required unless by business date.',
    example: FROM_EXAMPLE,
  }),
  To: localDateTimeParameter({
    required: false,
    role:
      'End of the period, exclusive; must not be before From, and at most ' +
      `${MAX_REPORT_DAYS} days after it. Required unless by business date.`,
    example: TO_EXAMPLE,
  }),
  BusinessDateFrom: businessDateParameter(
    'First business date, inclusive: the lines of the sales whose `businessDate` is in the range.',
  ),
  BusinessDateTo: businessDateParameter(
    `End of the business dates, exclusive; at most ${MAX_REPORT_DAYS} days after BusinessDateFrom.`,
  ),
};

/** Their names, in the contract's spelling and the document's order. */
export const REPORT_PARAMETERS = Object.keys(REPORT_QUERY) as Array<keyof typeof REPORT_QUERY>;

const DAY_MS = 24 * 60 * 60 * 1000;
const epochMs = (stored: StoredDateTime): number => Date.parse(`${stored.replace(' ', 'T')}Z`);

/**
 * The report's query, with the cursor endpoints' rules (names case-insensitive, unknown or
 * repeated names, zone designators, impossible dates and From after To are 400), plus: From and
 * To are required and at most MAX_REPORT_DAYS days apart.
 */
export function parseReportQuery(raw: RawQuery): ReportQuery {
  const q = readQuery(raw, REPORT_QUERY);
  const businessDates = businessDatesOf(q, MAX_REPORT_DAYS);
  const shopCode = q.ShopCode ?? null;
  if (businessDates) {
    const [from, to] = [businessDates.from, businessDates.to].map((d) => `${d} 00:00:00.000`);
    return { shopCode, from, to, businessDates };
  }
  const [from, to] = requiredPeriod(q.From, q.To, 'a shop-local date-time');
  checkPeriod(from, to);
  if (epochMs(to) - epochMs(from) > MAX_REPORT_DAYS * DAY_MS) {
    const message = `must be at most ${MAX_REPORT_DAYS} days after From`;
    throw badRequest(`To ${message}; ask for a longer period in several reports.`, [
      { field: 'To', message },
    ]);
  }
  return { shopCode, from, to, businessDates: null };
}
