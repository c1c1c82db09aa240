import { MAX_PAGE_LIMIT } from '../../config/limits';
import { ProblemException } from '../../common/errors/problem';
import type { CursorCodec } from './cursor-codec';
import { checkPeriod } from '../../common/query/filter-parameters';
import { PAGE_QUERY, parsePageRequest } from './page-query';

/** A codec that must not be asked: these queries carry no cursor to decode. */
const noCursors = {
  decode: () => {
    throw new Error('no cursor was expected');
  },
} as unknown as CursorCodec;

const caller: Parameters<typeof parsePageRequest>[3] = {
  userId: '7',
  username: 'u',
  roles: ['ApiUser'],
  shopCodes: ['S1'],
  tokenId: 'j',
};

/** The list's parameters and checks (sync/list/list.mode.ts). */
const LIST_LIKE = {
  declaration: PAGE_QUERY,
  carried: ['ShopCode', 'From', 'To'] as const,
  check: (q: { From?: string; To?: string }) => checkPeriod(q.From, q.To),
};

const parse = (raw: Record<string, string>) =>
  parsePageRequest(raw, LIST_LIKE, 'sales', caller, noCursors);

describe(parsePageRequest.name, () => {
  it('should accept the documented example of every parameter', () => {
    for (const [name, parameter] of Object.entries(PAGE_QUERY)) {
      expect(() => parse({ [name]: String(parameter.example) })).not.toThrow();
    }
  });

  it('should read the first page with every default when nothing is given', () => {
    expect(parse({})).toEqual({
      filters: { shopCode: null, from: null, to: null, businessDates: null },
      limit: MAX_PAGE_LIMIT,
      after: null,
      wait: 0,
    });
  });

  it('should take an empty Cursor for the first page', () => {
    expect(parse({ Cursor: '', ShopCode: 'S1', Limit: '2' })).toEqual({
      filters: { shopCode: 'S1', from: null, to: null, businessDates: null },
      limit: 2,
      after: null,
      wait: 0,
    });
  });

  it('should read the business dates, an empty one as not given', () => {
    const dates = { BusinessDateFrom: '2026-03-28', BusinessDateTo: '2026-03-30' };
    expect(parse(dates).filters.businessDates).toEqual({ from: '2026-03-28', to: '2026-03-30' });
    expect(parse({ BusinessDateFrom: '', BusinessDateTo: '' }).filters.businessDates).toBeNull();
  });

  it('should name From when it is after To, and every malformed parameter at once', () => {
    const errorsOf = (raw: Record<string, string>) => {
      try {
        parse(raw);
      } catch (error) {
        return (error as ProblemException).errors?.map((e) => e.field);
      }
      return [];
    };
    expect(errorsOf({ From: '2026-03-02', To: '2026-03-01' })).toEqual(['From']);
    expect(errorsOf({ ShopCode: '', From: 'x', Limit: '0' })).toEqual([
      'ShopCode',
      'From',
      'Limit',
    ]);
  });
});
