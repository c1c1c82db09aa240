import { BadRequestException, type ExecutionContext } from '@nestjs/common';
import { NEVER, of, throwError } from 'rxjs';
import { Deadline, runWithDeadline } from '../common/deadline/deadline';
import { ReportRefundInterceptor } from './report-refund.interceptor';
import { refundReportCall } from './report-throttler.guard';

jest.mock('./report-throttler.guard', () => ({ refundReportCall: jest.fn() }));

const refund = jest.mocked(refundReportCall);

function httpContext(request: object): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

describe(ReportRefundInterceptor.name, () => {
  const interceptor = new ReportRefundInterceptor();

  beforeEach(() => {
    jest.useFakeTimers();
    refund.mockClear();
  });
  afterEach(() => jest.useRealTimers());

  it('should take back a report abandoned by its deadline before it answered (503)', () => {
    const request = {};
    const deadline = new Deadline(1_000);
    const running = runWithDeadline(deadline, () =>
      interceptor.intercept(httpContext(request), { handle: () => NEVER }),
    ).subscribe({ error: () => undefined });
    jest.advanceTimersByTime(1_000);
    // The deadline's timer has answered 503 (enforceRequestDeadlines); the handler still runs.
    expect(refund).toHaveBeenCalledWith(request);
    running.unsubscribe();
    expect(refund).toHaveBeenCalledTimes(1);
  });

  it('should take back a report whose deadline ran out while its guards ran (503 already sent)', () => {
    const request = {};
    const deadline = new Deadline(1_000);
    jest.advanceTimersByTime(1_000);
    runWithDeadline(deadline, () =>
      interceptor.intercept(httpContext(request), { handle: () => NEVER }),
    ).subscribe({ error: () => undefined });
    expect(refund).toHaveBeenCalledWith(request);
  });

  it('should keep the call of a report that answered, whatever happens to its deadline later', () => {
    const deadline = new Deadline(1_000);
    runWithDeadline(deadline, () =>
      interceptor.intercept(httpContext({}), { handle: () => of('first chunk') }),
    ).subscribe();
    jest.advanceTimersByTime(5_000);
    expect(refund).not.toHaveBeenCalled();
  });

  it("should take back a call the service failed (5xx) but not a client's mistake (4xx)", () => {
    const failed = {};
    interceptor
      .intercept(httpContext(failed), { handle: () => throwError(() => new Error('down')) })
      .subscribe({ error: () => undefined });
    interceptor
      .intercept(httpContext({}), {
        handle: () => throwError(() => new BadRequestException('From is missing')),
      })
      .subscribe({ error: () => undefined });
    expect(refund.mock.calls).toEqual([[failed]]);
  });
});
