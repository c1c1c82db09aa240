import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  ThrottlerModuleOptions,
  ThrottlerOptions,
  ThrottlerRequest,
} from '@nestjs/throttler';
import type { CallerClaims } from '../auth/caller';
import { serviceUnavailable, tooManyRequests } from '../common/errors/problem';
import { NamedThrottlerGuard } from '../common/throttling/named-throttler.guard';
import { REPORT_CALLS_PER_MINUTE } from '../config/limits';
import {
  SharedLimitStorage,
  ThrottlerStorageRecord,
} from '../common/throttling/shared-limit.storage';

const REPORT_THROTTLER = 'report';
const WINDOW_MS = 60_000;

/** The calls this guard counted, by request, until the report is served or refused. */
const counted = new WeakMap<object, () => Promise<void>>();

/**
 * Takes the call of `request` back out of its user's window: the report refused it (5xx) after
 * the guard counted it. Nothing when the guard did not count it. Never rejects.
 */
export function refundReportCall(request: object): Promise<void> {
  const refund = counted.get(request);
  counted.delete(request);
  return refund ? refund() : Promise.resolve();
}

/** The report's entry in ThrottlerModule's list of named throttlers. */
export const REPORT_THROTTLER_OPTIONS: ThrottlerOptions = {
  name: REPORT_THROTTLER,
  ttl: WINDOW_MS,
  limit: REPORT_CALLS_PER_MINUTE,
};

/**
 * REPORT_CALLS_PER_MINUTE calls a minute per user on TransactionDetailReport, counted per verified token `sub`.
 *
 * Order: Nest runs the app-wide guards (BearerAuthGuard, then ApiUserGuard) before the guards of
 * a route, so when this guard runs `request.user` holds the verified caller: the tracker is the
 * token's `sub`, never the client address, and calls refused 401/403 are not counted. Apply it
 * with @UseGuards on the report route only: the cursor endpoints and the token route are not
 * under this limit.
 *
 * Every response it lets through carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset
 * (seconds); past the limit it answers 429 problem+json with Retry-After and the same headers.
 * When the counters cannot be read (Redis down), it answers 503: the limit is never dropped.
 *
 * A call counts only when the report is served (issue 27): the 503 of an unreadable store takes
 * its call back (a hit still in flight to a frozen Redis finds the refund's tombstone), and a
 * report that fails with a 5xx before its first byte is refunded by ReportRefundInterceptor.
 */
@Injectable()
export class ReportThrottlerGuard extends NamedThrottlerGuard {
  protected readonly throttlerName = REPORT_THROTTLER;
  protected readonly limitDescription = `${REPORT_CALLS_PER_MINUTE} reports a minute per user`;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @Inject(SharedLimitStorage) storage: SharedLimitStorage,
    reflector: Reflector,
  ) {
    super(options, storage, reflector);
  }

  /** Refuses to start without the report's throttler in the list: the limit would silently be off. */
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    if (this.throttlers.length !== 1) {
      throw new Error(`ThrottlerModule must list the '${REPORT_THROTTLER}' throttler`);
    }
  }

  protected override getTracker(request: { user?: CallerClaims }): Promise<string> {
    // Only reachable behind the bearer guard; no user would be a wiring mistake, not a client's.
    if (!request.user) throw new Error('ReportThrottlerGuard ran before authentication');
    return Promise.resolve(request.user.userId);
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, getTracker, generateKey } = request;
    const { req, res } = this.getRequestResponse(context);
    const name = throttler.name ?? REPORT_THROTTLER;
    const key = generateKey(context, await getTracker(req, context), name);
    const storage = this.storageService as SharedLimitStorage;
    const id = randomUUID();
    let record: ThrottlerStorageRecord;
    try {
      record = await storage.take(key, ttl, limit, id);
    } catch (error) {
      // Redis may still record the hit (frozen, then back): the refund cancels it either way.
      void storage.refund(key, id, ttl);
      // Outages are logged once by SharedLimitStorage; this is the per-request trace.
      this.logger.debug(`Report limit store failed: ${String(error)}`);
      throw serviceUnavailable(
        'The rate limit of this report cannot be checked right now; retry shortly.',
      );
    }
    if (record.isBlocked) {
      const wait = Math.max(1, record.timeToBlockExpire);
      const problem = tooManyRequests(`Rate limit exceeded: ${this.limitDescription}.`, wait);
      Object.assign(problem.headers, rateLimitHeaders(limit, 0, wait));
      throw problem;
    }
    counted.set(req, () => storage.refund(key, id, ttl));
    const remaining = Math.max(0, limit - record.totalHits);
    const headers = rateLimitHeaders(limit, remaining, Math.max(0, record.timeToExpire));
    for (const [header, value] of Object.entries(headers)) {
      this.setResponseHeader(res, header, value);
    }
    return true;
  }
}

/** The RateLimit header fields (IETF httpapi-ratelimit-headers), delta-seconds for Reset. */
function rateLimitHeaders(
  limit: number,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(Math.ceil(resetSeconds)),
    'RateLimit-Policy': `${limit};w=${WINDOW_MS / 1000}`,
  };
}
