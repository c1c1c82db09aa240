import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { tooManyRequests } from '../errors/problem';

/**
 * A ThrottlerGuard that applies one named throttler of ThrottlerModule's list, on the routes that
 * use it, and answers 429 problem+json with Retry-After. Subclasses name their throttler.
 */
@Injectable()
export abstract class NamedThrottlerGuard extends ThrottlerGuard {
  protected abstract readonly throttlerName: string;
  protected abstract readonly limitDescription: string;

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = this.throttlers.filter((t) => t.name === this.throttlerName);
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw tooManyRequests(
      `Rate limit exceeded: ${this.limitDescription}.`,
      detail.timeToBlockExpire,
    );
  }
}
