import {
  CallHandler,
  ExecutionContext,
  HttpException,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { DataSource } from 'typeorm';
import { loginFailureKey } from '../../auth/login-failure-key';
import { TokenController } from '../../auth/token.controller';
import { BackofficeUsersRepository } from '../../backoffice/backoffice-users.repository';
import { AppConfig } from '../../config/app-config';
import { MetricsService } from './metrics.service';
import { markTokenRefusal } from './token-outcome';

/**
 * Watches the token handler's refusals for what the status code cannot tell: a 429 raised by
 * the handler is a locked username (the per-address limit is a guard, before it), and a 401
 * after which the username's failure key (the user it finds, else the name) is locked with exactly
 * LOGIN_MAX_FAILURES failures is the failure that locked it (counted once, even when guesses race).
 */
@Injectable()
export class TokenMetricsInterceptor implements NestInterceptor {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: BackofficeUsersRepository,
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getHandler() !== TokenController.prototype.issue) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next
      .handle()
      .pipe(
        catchError((error: unknown) =>
          from(this.observe(request, error)).pipe(mergeMap(() => throwError(() => error))),
        ),
      );
  }

  private async observe(request: FastifyRequest, error: unknown): Promise<void> {
    const status = error instanceof HttpException ? error.getStatus() : undefined;
    if (status === 429) markTokenRefusal(request, 'locked');
    if (status !== 401) return;
    const username = (request.body as { username?: unknown } | undefined)?.username;
    if (typeof username !== 'string') return;
    try {
      if (await this.lockedByThisFailure(username)) this.metrics.lockout();
    } catch {
      // Metrics never change an answer: a failed look-up only leaves the count as it was.
    }
  }

  private async lockedByThisFailure(username: string): Promise<boolean> {
    const user = await this.users.findByUsername(username);
    const rows: Array<{ failure_count: number | string; locked_until_ms: number | string | null }> =
      await this.db.query(
        'SELECT failure_count, locked_until_ms FROM api_login_failures WHERE username_key = ?',
        [loginFailureKey(username, user?.id)],
      );
    const row = rows[0];
    return (
      !!row &&
      row.locked_until_ms !== null &&
      Number(row.locked_until_ms) > Date.now() &&
      Number(row.failure_count) === this.config.LOGIN_MAX_FAILURES
    );
  }
}
