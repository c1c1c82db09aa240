import {
  CanActivate,
  ExecutionContext,
  Injectable,
  Logger,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import type { CallerClaims } from '../../common/caller-claims';
import { serviceUnavailable, tooManyRequests } from '../../common/errors/problem';
import {
  SharedLimitStorage,
  type ThrottlerStorageRecord,
} from '../../common/throttling/shared-limit.storage';

const WINDOW_MS = 60_000;

/**
 * The budget of one user's digests (issue 44, 2): a 92-day digest is seconds of server work, and
 * twelve at once from one user slowed every other user's pages 60-fold. Three bounds, all
 * configurable: DIGEST_MAX_IN_FLIGHT digests running at once on this instance, every user's
 * (beyond: 503 with Retry-After, the instance is busy), DIGEST_MAX_IN_FLIGHT_PER_USER of one
 * user (the CPU they share is this instance's), and DIGEST_CALLS_PER_MINUTE a minute per user, a sliding window
 * in SharedLimitStorage, so with REDIS_URL set every instance counts the same calls. Refusals are
 * 429 with Retry-After, naming the limit. While Redis cannot be read, digests answer 503, as the
 * report does: the budget is never dropped.
 */
@Injectable()
export class DigestAdmission {
  private readonly logger = new Logger('DigestBudget');
  /** Digests running now, per user id. */
  private readonly running = new Map<string, number>();
  /** Digests running now on this instance, every user's. */
  private total = 0;

  constructor(
    private readonly storage: SharedLimitStorage,
    private readonly config: AppConfig,
  ) {}

  /** Digests of `userId` running now on this instance. */
  inFlight(userId: string): number {
    return this.running.get(userId) ?? 0;
  }

  /**
   * Admits one digest of `userId` or throws its refusal; the returned function ends it (once,
   * whenever the answer is over) with its status: an answer that is not a 2xx (a 400 of its
   * parameters, a 503) gives its call back to the minute's budget, as the report's limit does.
   * The in-flight slot is taken before the shared count is asked, so concurrent requests of one
   * user never pass it together.
   */
  async admit(userId: string): Promise<(status: number) => void> {
    const max = this.config.DIGEST_MAX_IN_FLIGHT_PER_USER;
    const running = this.running.get(userId) ?? 0;
    if (this.total >= this.config.DIGEST_MAX_IN_FLIGHT) {
      // The instance's (and its database's) share for digests is taken: not this user's fault.
      throw serviceUnavailable(
        `This instance is running its ${this.config.DIGEST_MAX_IN_FLIGHT} digests at once; retry shortly.`,
        1,
      );
    }
    if (running >= max) {
      throw tooManyRequests(
        `Digest limit exceeded: at most ${max} digests in flight per user; retry when one has been answered.`,
        1,
      );
    }
    this.running.set(userId, running + 1);
    this.total++;
    let ended = false;
    const leave = (): void => {
      if (ended) return;
      ended = true;
      this.total--;
      const now = (this.running.get(userId) ?? 1) - 1;
      if (now === 0) this.running.delete(userId);
      else this.running.set(userId, now);
    };
    const perMinute = this.config.DIGEST_CALLS_PER_MINUTE;
    const key = `digest-budget:${userId}`;
    const id = randomUUID();
    let record: ThrottlerStorageRecord;
    try {
      record = await this.storage.take(key, WINDOW_MS, perMinute, id);
    } catch (error) {
      leave();
      // Redis may still record the hit (frozen, then back): the refund cancels it either way.
      void this.storage.refund(key, id, WINDOW_MS);
      // Outages are logged once by SharedLimitStorage; this is the per-request trace.
      this.logger.debug(`Digest budget store failed: ${String(error)}`);
      throw serviceUnavailable('The digest budget cannot be checked right now; retry shortly.');
    }
    if (record.isBlocked) {
      leave();
      throw tooManyRequests(
        `Digest limit exceeded: at most ${perMinute} digests a minute per user.`,
        record.timeToBlockExpire,
      );
    }
    return (status) => {
      if (!ended && (status < 200 || status > 299)) void this.storage.refund(key, id, WINDOW_MS);
      leave();
    };
  }
}

/** Applies DigestAdmission to a route, after authentication (the app-wide guards run first). */
@Injectable()
export class DigestBudgetGuard implements CanActivate {
  constructor(private readonly budget: DigestAdmission) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const { user } = http.getRequest<{ user?: CallerClaims }>();
    // Only reachable behind the bearer guard; no user would be a wiring mistake, not a client's.
    if (!user) throw new Error('DigestBudgetGuard ran before authentication');
    const end = await this.budget.admit(user.userId);
    // 'close' comes once the answer is sent, or the client went away: the slot is free again.
    const raw = http.getResponse<FastifyReply>().raw;
    raw.once('close', () => end(raw.statusCode));
    return true;
  }
}

/** The one line a digest route needs: `@DigestBudget()` (DigestBudgetGuard, DigestAdmission). */
export const DigestBudget = (): MethodDecorator & ClassDecorator =>
  applyDecorators(UseGuards(DigestBudgetGuard));
