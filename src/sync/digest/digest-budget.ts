import {
  CanActivate,
  ExecutionContext,
  Injectable,
  Logger,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { MAX_WAITING_EXPENSIVE_READS } from '../../config/limits';
import { currentDeadline } from '../../common/deadline/deadline';
import { meterCurrentRequest } from '../../common/deadline/read-meter';
import { CostLedger, type Spent } from '../../common/throttling/cost-ledger';
import { FairQueue, QueueRefused } from './fair-queue';
import type { CallerClaims } from '../../common/caller-claims';
import { serviceUnavailable, tooManyRequests } from '../../common/errors/problem';
import {
  SharedLimitStorage,
  type ThrottlerStorageRecord,
} from '../../common/throttling/shared-limit.storage';

const WINDOW_MS = 60_000;
/** Database connections an expensive read holds at most (the day close's two lanes). */
const CONNECTIONS_EACH = 2;
/** Connections of the pool the lists and feeds keep at least, whatever the expensive reads do. */
const KEPT_FOR_LISTS = 2;

/**
 * The budget of the expensive reads (digests, day closes, the report; issues 44 and 54): a 92-day
 * digest is seconds of server work. Per user, all configurable (decision 54.1):
 *
 * - a turn in the instance's FairQueue: DIGEST_MAX_IN_FLIGHT running at once, every user's, shared
 *   round-robin between users, DIGEST_MAX_IN_FLIGHT_PER_USER of one user running and
 *   DIGEST_QUEUE_PER_USER waiting; a call waits at most half of its request's deadline, and its
 *   read then has a whole deadline (the clock stops while it waits);
 * - DIGEST_ROWS_PER_MINUTE rows read a minute (CostLedger: what the call read, charged once it
 *   is answered; a digest from the cache reads almost nothing) and DIGEST_CALLS_PER_MINUTE calls
 *   a minute (SharedLimitStorage), both shared by the instances through REDIS_URL.
 *
 * A user past any of these gets 429 with Retry-After and a problem naming the limit; 503 only
 * when the instance cannot serve anyone: every waiting place taken, or Redis unreadable (the
 * budget is never dropped, as the report's limit is not).
 *
 * The bulk read takes a turn and a call, not rows (decision 55.4.1): it reads what it sends, at
 * its reader's pace, so its rows are neither charged nor checked.
 */
@Injectable()
export class DigestAdmission {
  private readonly logger = new Logger('DigestBudget');
  private readonly queue: FairQueue;

  constructor(
    private readonly storage: SharedLimitStorage,
    private readonly ledger: CostLedger,
    private readonly config: AppConfig,
  ) {
    this.queue = new FairQueue({
      capacity: config.DIGEST_MAX_IN_FLIGHT,
      perUser: config.DIGEST_MAX_IN_FLIGHT_PER_USER,
      waitingPerUser: config.DIGEST_QUEUE_PER_USER,
      waitingTotal: MAX_WAITING_EXPENSIVE_READS,
    });
    const kept = config.DATABASE_POOL_SIZE - CONNECTIONS_EACH * config.DIGEST_MAX_IN_FLIGHT;
    if (kept < KEPT_FOR_LISTS) {
      this.logger.warn(
        `DATABASE_POOL_SIZE (${config.DATABASE_POOL_SIZE}) keeps ${kept} connections for lists and feeds beside ${config.DIGEST_MAX_IN_FLIGHT} expensive reads (DIGEST_MAX_IN_FLIGHT) of ${CONNECTIONS_EACH} each: lists may wait behind them. Keep at least ${KEPT_FOR_LISTS}.`,
      );
    }
  }

  /** Expensive reads of `userId` running now on this instance. */
  inFlight(userId: string): number {
    return this.queue.runningOf(userId);
  }

  /** Expensive reads of `userId` waiting for a turn now on this instance. */
  waiting(userId: string): number {
    return this.queue.waitingOf(userId);
  }

  /**
   * Admits one expensive read of `userId`, once its turn comes, or throws its refusal; `gone`
   * aborts when the client went away (its place in the line is given up). The returned function
   * ends it (once, whenever the answer is over) with its status: an answer that is not a 2xx (a
   * 400 of its parameters, a 503) gives its call back to the minute's calls; every answer
   * charges the rows it read to the minute's rows, unless `rows` is false (the bulk read).
   */
  async admit(userId: string, gone?: AbortSignal, rows = true): Promise<(status: number) => void> {
    const key = `digest-budget:${userId}`;
    const id = randomUUID();
    await this.checkBudgets(userId, key, id, rows);
    const waitMs = this.waitMs();
    // The wait for a turn has its own bound; the read then has a whole deadline of its own.
    const deadline = currentDeadline();
    deadline?.suspend();
    let leave: () => void;
    try {
      const waited = AbortSignal.timeout(waitMs);
      leave = await this.queue.enter(userId, gone ? AbortSignal.any([waited, gone]) : waited);
    } catch (error) {
      void this.storage.refund(key, id, WINDOW_MS);
      throw this.refusal(error, waitMs);
    }
    deadline?.restart();
    const meter = meterCurrentRequest();
    let ended = false;
    return (status) => {
      if (ended) return;
      ended = true;
      leave();
      if (status < 200 || status > 299) void this.storage.refund(key, id, WINDOW_MS);
      if (!rows) return;
      const read = meter?.rows ?? 0;
      this.ledger.charge(key, read).catch((error: unknown) => {
        // Outages are logged once by SharedLimitStorage; the rows of this call are lost.
        this.logger.debug(`Digest rows not charged (${read}): ${String(error)}`);
      });
    };
  }

  /** The minute's calls (one taken, named `id`) and, with `rows`, rows of the user, or their refusal. */
  private async checkBudgets(
    userId: string,
    key: string,
    id: string,
    rows: boolean,
  ): Promise<void> {
    const perMinute = this.config.DIGEST_CALLS_PER_MINUTE;
    const rowsPerMinute = this.config.DIGEST_ROWS_PER_MINUTE;
    let record: ThrottlerStorageRecord;
    let spent: Spent;
    try {
      [record, spent] = await Promise.all([
        this.storage.take(key, WINDOW_MS, perMinute, id),
        rows ? this.ledger.spent(key) : { spent: 0, resetMs: 0 },
      ]);
    } catch (error) {
      // Redis may still record the hit (frozen, then back): the refund cancels it either way.
      void this.storage.refund(key, id, WINDOW_MS);
      // Outages are logged once by SharedLimitStorage; this is the per-request trace.
      this.logger.debug(`Digest budget store failed for ${userId}: ${String(error)}`);
      throw serviceUnavailable('The digest budget cannot be checked right now; retry shortly.');
    }
    if (record.isBlocked) {
      throw tooManyRequests(
        `Digest limit exceeded (DIGEST_CALLS_PER_MINUTE): at most ${perMinute} digests a minute per user.`,
        record.timeToBlockExpire,
      );
    }
    if (spent.spent >= rowsPerMinute) {
      void this.storage.refund(key, id, WINDOW_MS);
      throw tooManyRequests(
        `Digest limit exceeded (DIGEST_ROWS_PER_MINUTE): at most ${rowsPerMinute} rows read a minute per user by digests, day closes and reports.`,
        spent.resetMs / 1000,
      );
    }
  }

  /** How long a call may wait for its turn: until half of its request's deadline is left. */
  private waitMs(): number {
    const budget = this.config.REQUEST_DEADLINE_MS;
    const remaining = Math.min(currentDeadline()?.remainingMs() ?? budget, budget);
    return Math.max(0, Math.floor(remaining - budget / 2));
  }

  private refusal(error: unknown, waitMs: number): Error {
    if (!(error instanceof QueueRefused)) return error as Error;
    const { DIGEST_MAX_IN_FLIGHT_PER_USER: running, DIGEST_QUEUE_PER_USER: waiting } = this.config;
    switch (error.reason) {
      case 'user-share':
        return tooManyRequests(
          `Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most ${running} digests running and ${waiting} waiting per user; retry when one has been answered.`,
          1,
        );
      case 'waited':
        return tooManyRequests(
          `Digest limit exceeded (REQUEST_DEADLINE_MS): waited ${waitMs} ms for a turn, as long as the request's deadline allows, behind other digests; retry shortly.`,
          Math.max(1, waitMs / 1000),
        );
      case 'saturated':
        return serviceUnavailable(
          `This instance has ${MAX_WAITING_EXPENSIVE_READS} digests waiting for a turn; retry shortly.`,
          1,
        );
    }
  }
}

/** Route metadata: the route's rows are not charged to DIGEST_ROWS_PER_MINUTE (`@BulkBudget()`). */
const ROWS_UNCHARGED = 'digest-budget:rows-uncharged';

/** Applies DigestAdmission to a route, after authentication (the app-wide guards run first). */
@Injectable()
export class DigestBudgetGuard implements CanActivate {
  constructor(
    private readonly budget: DigestAdmission,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const { user } = http.getRequest<{ user?: CallerClaims }>();
    // Only reachable behind the bearer guard; no user would be a wiring mistake, not a client's.
    if (!user) throw new Error('DigestBudgetGuard ran before authentication');
    const raw = http.getResponse<FastifyReply>().raw;
    // 'close' comes once the answer is sent, or the client went away: a waiting call leaves the
    // line, a running one frees its place.
    const gone = new AbortController();
    raw.once('close', () => gone.abort());
    const uncharged = this.reflector.get<boolean>(ROWS_UNCHARGED, context.getHandler()) === true;
    const end = await this.budget.admit(user.userId, gone.signal, !uncharged);
    if (gone.signal.aborted) end(raw.statusCode);
    else gone.signal.addEventListener('abort', () => end(raw.statusCode), { once: true });
    return true;
  }
}

/** The one line a digest route needs: `@DigestBudget()` (DigestBudgetGuard, DigestAdmission). */
export const DigestBudget = (): MethodDecorator & ClassDecorator =>
  applyDecorators(UseGuards(DigestBudgetGuard));

/** The bulk read's: a turn and a call of the budget, its rows neither charged nor checked. */
export const BulkBudget = (): MethodDecorator =>
  applyDecorators(SetMetadata(ROWS_UNCHARGED, true), UseGuards(DigestBudgetGuard));
