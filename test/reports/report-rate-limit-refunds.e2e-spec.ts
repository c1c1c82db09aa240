import { TransactionDetailReportService } from '../../src/reports/transaction-detail-report.service';
import { serviceUnavailable } from '../../src/common/errors/problem';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { appBehindRedisProxy } from '../support/redis-proxy-app';
import { redis as redisServer } from '../support/requirements';
import type { TestApp } from '../support/test-app';
import { getReport, reportToken } from './report-fixtures';

jest.setTimeout(60_000);

const PERIOD = { From: '2026-03-01', To: '2026-03-08' };

/** `RateLimit-Remaining` of one served report (asserting it was served). */
async function remainingAfterServed(api: TestApp, token: string): Promise<number> {
  const res = await getReport(api.baseUrl, token, PERIOD);
  expect(res.status).toBe(200);
  return Number(res.headers.get('ratelimit-remaining'));
}

/**
 * The report's limit counts a call only when the report is served (issue 27): calls answered 503
 * while Redis was frozen are not counted when it resumes, nor are reports the service failed to
 * serve (5xx before the first byte). A client's 4xx stays counted (decision 20).
 */
describeEachDatabase(
  'TransactionDetailReport: the limit counts what it served',
  (ctx) => {
    const behind = appBehindRedisProxy(ctx, 'refunds');
    let shop: string;

    beforeAll(async () => {
      shop = await createShop(ctx.db.db);
    });

    it('should not count the calls answered 503 while Redis was frozen once it resumes: the user still gets 12 that minute', async () => {
      const { api, proxy } = behind;
      const token = reportToken([shop]);
      expect(await remainingAfterServed(api, token)).toBe(11);
      proxy.freeze();
      for (let call = 0; call < 3; call++) {
        const res = await getReport(api.baseUrl, token, PERIOD);
        expect(res.status).toBe(503);
      }
      await proxy.restore();
      // The frozen hits and their refunds reach Redis now, in whatever order: none is recorded.
      await new Promise((r) => setTimeout(r, 1500));
      for (let served = 2; served <= 12; served++) {
        expect(await remainingAfterServed(api, token)).toBe(12 - served);
      }
      expect((await getReport(api.baseUrl, token, PERIOD)).status).toBe(429);
    });

    it('should not count a report the service failed to serve (503 before its first byte), and still count a 400', async () => {
      const { api } = behind;
      const token = reportToken([shop]);
      expect(await remainingAfterServed(api, token)).toBe(11);
      const reports = api.app.get(TransactionDetailReportService);
      const open = jest
        .spyOn(reports, 'open')
        .mockRejectedValueOnce(serviceUnavailable('The database is unavailable; retry shortly.'));
      expect((await getReport(api.baseUrl, token, PERIOD)).status).toBe(503);
      open.mockRestore();
      await new Promise((r) => setTimeout(r, 200));
      expect(await remainingAfterServed(api, token)).toBe(10);
      const bad = await getReport(api.baseUrl, token, { From: '2026-03-08', To: '2026-03-01' });
      expect(bad.status).toBe(400);
      expect(await remainingAfterServed(api, token)).toBe(8);
    });
  },
  { requires: [redisServer] },
);
