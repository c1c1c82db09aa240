import {
  CallHandler,
  ExecutionContext,
  HttpException,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { catchError, finalize, Observable, tap, throwError } from 'rxjs';
import { currentDeadline } from '../common/deadline/deadline';
import { refundReportCall } from './report-throttler.guard';

/**
 * A report the service fails to serve does not spend its caller's limit: an error before the
 * first byte that is the service's (5xx: the database unreachable or too slow, any fault) takes
 * the call back out of the window (issue 27). A client's mistake (4xx) stays counted (decision
 * 20), and so does a report whose stream broke after its first byte (it was served).
 */
@Injectable()
export class ReportRefundInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<object>();
    const deadline = currentDeadline();
    let answered = false;
    // Shed by its deadline (503, decision 27.3) before it answered: the timer answered, and the
    // handler's work is abandoned. Also when the clock ran out while the guards ran (a slow
    // limit store): the 503 is out already. Refunding twice is harmless (refundReportCall).
    const shed = (): void => {
      if (!answered) void refundReportCall(request);
    };
    if (deadline?.expired) shed();
    deadline?.signal.addEventListener('abort', shed, { once: true });
    return next.handle().pipe(
      tap(() => (answered = true)),
      catchError((error: unknown) => {
        answered = true;
        if (!(error instanceof HttpException) || error.getStatus() >= 500) {
          void refundReportCall(request);
        }
        return throwError(() => error);
      }),
      finalize(() => deadline?.signal.removeEventListener('abort', shed)),
    );
  }
}
