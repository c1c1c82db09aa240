import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { defer, firstValueFrom, NEVER, Observable, of } from 'rxjs';
import { loadConfig } from '../../config/load-config';
import { currentDeadline, DeadlineExceededError } from './deadline';
import { DeadlineInterceptor, deadlineOf } from './deadline.interceptor';

const config = loadConfig({ APP_ENV: 'development', REQUEST_DEADLINE_MS: '1000' });

function httpContext(request: object, elapsedTime = 0): ExecutionContext {
  return {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({ elapsedTime }) }),
  } as unknown as ExecutionContext;
}

const handler = (handle: () => Observable<unknown>): CallHandler => ({ handle });

describe(DeadlineInterceptor.name, () => {
  const interceptor = new DeadlineInterceptor(config);

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should fail a handler still working at the deadline with DeadlineExceededError', async () => {
    const request = {};
    const answer = firstValueFrom(
      interceptor.intercept(
        httpContext(request),
        handler(() => NEVER),
      ),
    );
    jest.advanceTimersByTime(1_000);
    await expect(answer).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(deadlineOf(request)?.expired).toBe(true);
  });

  it('should count the deadline from the request arrival', async () => {
    const request = {};
    const answer = firstValueFrom(
      interceptor.intercept(
        httpContext(request, 700),
        handler(() => NEVER),
      ),
    );
    jest.advanceTimersByTime(300);
    await expect(answer).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it('should run the handler under the deadline and finish it with the answer', async () => {
    const request = {};
    const answer = await firstValueFrom(
      interceptor.intercept(
        httpContext(request),
        handler(() => defer(() => of(currentDeadline()?.state))),
      ),
    );
    expect(answer).toBe('running');
    expect(deadlineOf(request)?.state).toBe('finished');
    jest.advanceTimersByTime(5_000);
    expect(deadlineOf(request)?.expired).toBe(false);
  });

  it('should pass a handler error on as it is, before the deadline', async () => {
    const failure = new Error('refused');
    const answer = firstValueFrom(
      interceptor.intercept(
        httpContext({}),
        handler(() => defer(() => Promise.reject(failure))),
      ),
    );
    await expect(answer).rejects.toBe(failure);
  });
});
