import { checkPeriod } from '../../common/pagination/filter-parameters';
import { PAGE_QUERY } from '../../common/pagination/page-query';
import { MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import { readAttached } from '../sql/attached-reader';
import { readSessions } from '../sql/session-reader';
import type { KeysetBounds } from '../sql/keyset-query';
import { type KeysetPosition, readKeyset } from '../sql/keyset-reader';
import type { Mode } from './mode';

export type { KeysetPosition } from '../sql/keyset-reader';

/** A list page: a period of one shop or of all the caller's, in (time, id) order. */
export interface PageQuery extends KeysetBounds {
  shopCode: string | null;
}

/**
 * The list mode (GET /sales, /payments, /cash-movements): the records of a period in business
 * time (the source's `time` column, shop-local), oldest first, `{ data, nextCursor }` with
 * nextCursor null on the last page. The keyset read (sql/keyset-reader.ts) from any replica.
 */
export const LIST: Mode<PageQuery, { next: KeysetPosition | null }, { nextCursor: string | null }> =
  {
    route: null,
    parameters: () => PAGE_QUERY,
    carried: ['ShopCode', 'From', 'To'],
    check: (q) => checkPeriod(q.From, q.To),
    query: ({ filters, after, limit }) => ({ ...filters, after, limit }),
    async read(source, scope, query, reads) {
      const db = reads.reader();
      const { rows, next } = await readKeyset(source, scope, query, db);
      await readSessions(source, rows, db);
      return { rows: await readAttached(source, rows, db), next };
    },
    envelope: (query, { next }, cursor) => ({
      nextCursor: next
        ? cursor({ shopCode: query.shopCode, from: query.from, to: query.to }, next)
        : null,
    }),
    docs: {
      note:
        `\n\nPages hold up to ${MAX_PAGE_LIMIT} records (Limit), ordered by shop-local date-time, then id. ` +
        'Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. ' +
        'A shop outside the token claims gives an empty page, never an error.',
      ok: 'A page of records and the cursor of the next page.',
      data: 'The records of the page, oldest first',
      properties: {
        nextCursor: {
          type: String,
          nullable: true,
          maxLength: MAX_PARAMETER_LENGTH,
          description:
            'Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page.',
        },
      },
      example: (cursor) => ({ nextCursor: cursor }),
    },
  };
