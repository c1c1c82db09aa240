import { rawExchange, getWithoutReading } from '../operations/support/raw-http';
import { REPORT, reportToken, seedStreamingReport } from '../reports/report-fixtures';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer } from '../support/http';
import { appForBlock } from '../support/test-app';

jest.setTimeout(60_000);

const REQUEST_TIMEOUT_MS = 1_500;
const HEADERS_TIMEOUT_MS = 1_000;
/** Node checks the timeouts once a second (server-timeouts.ts), plus scheduling slack. */
const CHECK_SLACK_MS = 1_000 + 1_000;

describeEachDatabase('Slow clients cannot hold connections (HTTP server timeouts)', (ctx) => {
  const api = appForBlock(ctx, {
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
  });

  const timed = async (bytes: string, limitMs: number) => {
    const started = Date.now();
    const answer = await rawExchange(api.current.baseUrl, bytes, limitMs);
    return { answer, elapsedMs: Date.now() - started };
  };

  it('should answer a POST /Token whose body never arrives (3 of 1000 bytes) with a 408 problem within the request timeout', async () => {
    const { answer, elapsedMs } = await timed(
      'POST /api/v1.0/Token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"u',
      REQUEST_TIMEOUT_MS + CHECK_SLACK_MS,
    );
    expect(elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 408,
    });
  });

  it('should close a connection whose headers never end within the headers timeout', async () => {
    const { answer, elapsedMs } = await timed(
      'GET /api/v1.0/shops HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n',
      HEADERS_TIMEOUT_MS + CHECK_SLACK_MS,
    );
    expect(elapsedMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('should still stream a whole 31-day report to a client who reads it slowly, past the request timeout', async () => {
    // About 10 MB of JSON: more than the socket buffers hold, so the report is still in flight,
    // held by backpressure, while the client pauses.
    const seeded = await seedStreamingReport(ctx.db.db, 20261123, 6);
    const report = await getWithoutReading(
      `${api.current.baseUrl}${REPORT}?From=2026-05-01&To=2026-06-01`,
      bearer(reportToken(seeded.shopCodes)),
    );
    expect(report.status).toBe(200);
    await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS + CHECK_SLACK_MS));
    const body = JSON.parse(await report.readAll());
    expect(body.totals.lines + body.totals.voidedLines).toBe(seeded.lines);
    expect(body.rows).toHaveLength(seeded.lines);
  });
});
