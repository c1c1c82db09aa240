import {
  CallHandler,
  ExecutionContext,
  HttpException,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { catchError, Observable, throwError } from 'rxjs';
import { isLockingFailure } from '../../auth/locking-failure';
import { isShedSignIn } from '../../auth/shed-refusal';
import { TokenController } from '../../auth/token.controller';
import { MetricsService } from './metrics.service';
import { markTokenRefusal } from './token-outcome';

/**
 * Watches the token handler's refusals for what the status code cannot tell: a 429 raised by
 * the handler is a locked username (the per-address limit is a guard, before it), and a 401 the
 * token service marked as the failure that locked its username is a lockout (counted once, even
 * when guesses race: the failure table tells only one failure it set the lock), and a 503 the
 * token service raised because the hashing queue was full is a shed sign-in, not an outage.
 */
@Injectable()
export class TokenMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: MetricsService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getHandler() !== TokenController.prototype.issue) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      catchError((error: unknown) => {
        const status = error instanceof HttpException ? error.getStatus() : undefined;
        if (status === 429) markTokenRefusal(request, 'locked');
        if (isShedSignIn(error)) markTokenRefusal(request, 'shed');
        if (status === 401 && isLockingFailure(error)) this.metrics.lockout();
        return throwError(() => error);
      }),
    );
  }
}
