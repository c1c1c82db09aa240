/**
 * The source of the program that uses the generated client. At test time it is written into the
 * folder where @hey-api/openapi-ts generated the client (types, SDK functions and its fetch
 * client, in test-artifacts/), type-checked against that code with the TypeScript compiler, then
 * run: if the document lacked an operation, a parameter or a field used here, the type-check fails.
 *
 * The token is given to the client once, through its own `auth` option. The client applies it as
 * each operation's `security` says, which the generator copied from the document: for
 * `type: http, scheme: bearer` it sends `Authorization: Bearer <token>`. No call below writes an
 * Authorization header; the `fetch` wrapper only records what the client sent.
 */
export const CLIENT_PROGRAM = String.raw`
import { client } from './client.gen';
import {
  getTransactionDetailReport,
  issueToken,
  listCashDrawerSessions,
  listCashMovements,
  listPayments,
  listSales,
  listShops,
  paymentsFeed,
  salesFeed,
  cashMovementsFeed,
} from './sdk.gen';
import type { CashDrawerSession, CashMovement, Payment, Sale } from './types.gen';

export interface SentRequest { method: string; path: string; authorization: string | null }

/** Points the generated client at the app, with the token behind its auth option. */
function configure(baseUrl: string, token: () => string | undefined): SentRequest[] {
  const sent: SentRequest[] = [];
  client.setConfig({
    baseUrl,
    auth: () => token(),
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname,
        authorization: request.headers.get('authorization'),
      });
      return fetch(request);
    },
  });
  return sent;
}

async function issue(username: string, password: string) {
  const issued = await issueToken({ body: { username, password } });
  if (!issued.data) throw new Error('token: ' + issued.response.status);
  return issued.data;
}

/** A token, then the first page of sales: what a client of the document gets on its first read. */
export async function readOnePage(baseUrl: string, username: string, password: string) {
  let token: string | undefined;
  const sent = configure(baseUrl, () => token);
  token = (await issue(username, password)).token;
  const sales = await listSales({ query: { Limit: 1 } });
  return { token, status: sales.response.status, sent };
}

type Page<T> = { data: T[]; nextCursor: string | null };

/** A token, the shops, two pages of each list, the feeds, and the report in JSON and CSV. */
export async function useTheApi(baseUrl: string, username: string, password: string) {
  let token: string | undefined;
  const sent = configure(baseUrl, () => token);
  const issued = await issue(username, password);
  token = issued.token;
  const expiration: string = issued.expiration;

  const shops = await listShops();
  const shopCodes: string[] = (shops.data?.data ?? []).map((shop) => shop.code);

  const next = (page: Page<unknown> | undefined): string => {
    if (!page?.nextCursor) throw new Error('expected a next page');
    return page.nextCursor;
  };
  const sales1 = await listSales({ query: { Limit: 3 } });
  const sales2 = await listSales({ query: { Cursor: next(sales1.data), Limit: 3 } });
  const payments1 = await listPayments({ query: { Limit: 3 } });
  const payments2 = await listPayments({ query: { Cursor: next(payments1.data), Limit: 3 } });
  const cash1 = await listCashMovements({ query: { Limit: 3 } });
  const cash2 = await listCashMovements({ query: { Cursor: next(cash1.data), Limit: 3 } });
  const sessions1 = await listCashDrawerSessions({ query: { Limit: 3 } });
  const sessions2 = await listCashDrawerSessions({
    query: { Cursor: next(sessions1.data), Limit: 3 },
  });
  const firstLineGross: string | undefined = sales1.data?.data[0]?.lines[0]?.gross;
  const pages: {
    sales: Sale[][];
    payments: Payment[][];
    cashMovements: CashMovement[][];
    cashDrawerSessions: CashDrawerSession[][];
  } = {
    sales: [sales1.data?.data ?? [], sales2.data?.data ?? []],
    payments: [payments1.data?.data ?? [], payments2.data?.data ?? []],
    cashMovements: [cash1.data?.data ?? [], cash2.data?.data ?? []],
    cashDrawerSessions: [sessions1.data?.data ?? [], sessions2.data?.data ?? []],
  };
  const statuses = {
    sales: [sales1.response.status, sales2.response.status],
    payments: [payments1.response.status, payments2.response.status],
    cashMovements: [cash1.response.status, cash2.response.status],
    cashDrawerSessions: [sessions1.response.status, sessions2.response.status],
  };
  const nextCursors = {
    sales: [sales1.data?.nextCursor ?? null, sales2.data?.nextCursor ?? null],
    payments: [payments1.data?.nextCursor ?? null, payments2.data?.nextCursor ?? null],
    cashMovements: [cash1.data?.nextCursor ?? null, cash2.data?.nextCursor ?? null],
    cashDrawerSessions: [sessions1.data?.nextCursor ?? null, sessions2.data?.nextCursor ?? null],
  };

  // The feeds: a first page, then the stored cursor; the records are the lists' own.
  const feed1 = await salesFeed({ query: { Limit: 3 } });
  const feed2 = await salesFeed({ query: { Cursor: feed1.data?.nextCursor ?? '', Limit: 3 } });
  const paymentsFed = await paymentsFeed({ query: { Limit: 3 } });
  const cashFed = await cashMovementsFeed({ query: { Limit: 3 } });
  const feeds = {
    statuses: [feed1, feed2, paymentsFed, cashFed].map((r) => r.response.status),
    sales: [feed1.data?.data ?? [], feed2.data?.data ?? []] as Sale[][],
    payments: (paymentsFed.data?.data ?? []) as Payment[],
    cashMovements: (cashFed.data?.data ?? []) as CashMovement[],
    caughtUp: [feed1.data?.caughtUp, feed2.data?.caughtUp] as Array<boolean | undefined>,
    nextCursor: feed2.data?.nextCursor as string | undefined,
  };

  const period = { From: '2026-03-02T00:00:00', To: '2026-03-04T00:00:00' };
  const json = await getTransactionDetailReport({ query: period });
  // Accept chooses the representation; the client still adds the Authorization header itself.
  // The generator types the 200 as the JSON schema only, so the CSV text is returned untyped.
  const csv = await getTransactionDetailReport({
    query: period,
    headers: { Accept: 'text/csv' },
    parseAs: 'text',
  });
  const report = {
    status: json.response.status,
    body: json.data,
    csvStatus: csv.response.status,
    csvType: csv.response.headers.get('content-type'),
    csv: csv.data as unknown,
  };

  return { token, expiration, shopCodes, pages, statuses, nextCursors, firstLineGross, feeds, report, sent };
}
`;
