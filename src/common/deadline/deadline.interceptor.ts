import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { Deadline, runWithDeadline } from './deadline';

/** The deadline of each request, for the edge that counts requests shed (RequestTracker). */
const REQUEST_DEADLINES = new WeakMap<object, Deadline>();

export function deadlineOf(request: object): Deadline | undefined {
  return REQUEST_DEADLINES.get(request);
}

/**
 * REQUEST_DEADLINE_MS on every API route (decision 27.3): the clock starts at the request's
 * arrival (Fastify's `elapsedTime`), the handler and everything it starts run under the deadline
 * (`currentDeadline()`, which the database's pool wait and queries obey), and when it runs out
 * before the handler has answered, the request fails at once with DeadlineExceededError (503 by
 * the problem filter) while the handler's work is abandoned: its wait for a connection fails, its
 * running query is cancelled and no further query starts (database/deadline/). The handler's
 * answer ends the deadline; for the report that answer is its first chunk, so a long stream is
 * never cut.
 */
@Injectable()
export class DeadlineInterceptor implements NestInterceptor {
  constructor(private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const elapsedMs = http.getResponse<{ elapsedTime?: number }>().elapsedTime ?? 0;
    const budgetMs = this.config.REQUEST_DEADLINE_MS;
    const deadline = new Deadline(budgetMs, budgetMs - elapsedMs);
    REQUEST_DEADLINES.set(http.getRequest<object>(), deadline);
    return new Observable((subscriber) => {
      const expired = (): void => subscriber.error(deadline.signal.reason);
      if (deadline.expired) {
        expired();
        return undefined;
      }
      deadline.signal.addEventListener('abort', expired, { once: true });
      // The handler, and all it starts, runs in the deadline's async context.
      const inner = runWithDeadline(deadline, () =>
        next.handle().subscribe({
          next: (value) => {
            deadline.finish();
            subscriber.next(value);
          },
          error: (error: unknown) => {
            deadline.finish();
            subscriber.error(error);
          },
          complete: () => {
            deadline.finish();
            subscriber.complete();
          },
        }),
      );
      return () => {
        deadline.signal.removeEventListener('abort', expired);
        inner.unsubscribe();
      };
    });
  }
}
