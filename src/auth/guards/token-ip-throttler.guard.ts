import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { NamedThrottlerGuard } from '../../common/throttling/named-throttler.guard';
import { TokenOutcomes } from '../token-outcomes';

export const TOKEN_IP_THROTTLER = 'token-ip';

/**
 * Per-client-IP limit of the token route (TOKEN_RATE_LIMIT_PER_MINUTE; TRUST_PROXY decides the
 * IP). Its refusals are counted as `rate_limited` (TokenOutcomes).
 */
@Injectable()
export class TokenIpThrottlerGuard extends NamedThrottlerGuard {
  protected readonly throttlerName = TOKEN_IP_THROTTLER;
  protected readonly limitDescription = 'too many token requests from this address';

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly outcomes: TokenOutcomes,
  ) {
    super(options, storage, reflector);
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    this.outcomes.refused('rate_limited');
    return super.throwThrottlingException(context, detail);
  }
}
