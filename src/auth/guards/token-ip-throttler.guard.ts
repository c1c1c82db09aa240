import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { SharedLimitStorage } from '../../common/throttling/shared-limit.storage';
import { NamedThrottlerGuard } from '../../common/throttling/named-throttler.guard';
import { AppConfig } from '../../config/app-config';
import { clientKey } from '../client-key';
import { TokenOutcomes } from '../token-outcomes';

export const TOKEN_IP_THROTTLER = 'token-ip';

/**
 * Per-client limit of the token route (TOKEN_RATE_LIMIT_PER_MINUTE a minute): the client is
 * clientKey() of the address TRUST_PROXY resolves (an IPv6 /64 is one client), and the calls are
 * counted in SharedLimitStorage, so with REDIS_URL set the limit holds across every instance.
 * While Redis is unreachable each instance counts on its own (a brake, not the protection: the
 * sign-in budgets are). Its refusals are counted as `rate_limited` (TokenOutcomes).
 */
@Injectable()
export class TokenIpThrottlerGuard extends NamedThrottlerGuard {
  protected readonly throttlerName = TOKEN_IP_THROTTLER;
  protected readonly limitDescription = 'too many token requests from this address';

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @Inject(SharedLimitStorage) storage: SharedLimitStorage,
    reflector: Reflector,
    private readonly outcomes: TokenOutcomes,
    private readonly config: AppConfig,
  ) {
    super(options, localWhileRedisIsAway(storage), reflector);
  }

  protected override getTracker(request: { ip?: string }): Promise<string> {
    return Promise.resolve(clientKey(request.ip, this.config.CLIENT_IPV6_PREFIX_LENGTH));
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    this.outcomes.refused('rate_limited');
    return super.throwThrottlingException(context, detail);
  }
}

function localWhileRedisIsAway(storage: SharedLimitStorage): ThrottlerStorage {
  return { increment: (key, ttl, limit) => storage.incrementOrLocal(key, ttl, limit) };
}
