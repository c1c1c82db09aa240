import { badRequest } from '../common/errors/problem';
import type { ProblemFieldErrorDto } from '../common/errors/problem-details.dto';
import type { StoredDateTime } from '../common/local-date-time';
import { MAX_REPORT_DAYS } from '../config/limits';
import { parseFilters } from '../common/pagination/page-query';
import { RawQuery, readQueryParameters } from '../common/pagination/query-parameters';

export const REPORT_PARAMETERS = ['ShopCode', 'From', 'To'] as const;

export interface ReportQuery {
  shopCode: string | null;
  /** Inclusive, stored form. */
  from: StoredDateTime;
  /** Exclusive, stored form. */
  to: StoredDateTime;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const epochMs = (stored: StoredDateTime): number => Date.parse(`${stored.replace(' ', 'T')}Z`);

/**
 * The report's query, with the cursor endpoints' rules (names case-insensitive, unknown or
 * repeated names, zone designators, impossible dates and From after To are 400), plus: From and
 * To are required and at most MAX_REPORT_DAYS days apart.
 */
export function parseReportQuery(raw: RawQuery): ReportQuery {
  const given = readQueryParameters(raw, REPORT_PARAMETERS);
  const missing: ProblemFieldErrorDto[] = (['From', 'To'] as const)
    .filter((name) => given[name] === undefined)
    .map((field) => ({ field, message: 'is required (a shop-local date-time without zone)' }));
  if (missing.length > 0) {
    throw badRequest(missing.map((e) => `${e.field} ${e.message}`).join('; ') + '.', missing);
  }
  const { shopCode, from, to } = parseFilters(given);
  if (from === null || to === null) throw new Error('From and To were checked above');
  if (epochMs(to) - epochMs(from) > MAX_REPORT_DAYS * DAY_MS) {
    const message = `must be at most ${MAX_REPORT_DAYS} days after From`;
    throw badRequest(`To ${message}; ask for a longer period in several reports.`, [
      { field: 'To', message },
    ]);
  }
  return { shopCode, from, to };
}
