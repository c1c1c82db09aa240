import { Injectable } from '@nestjs/common';
import { NamedThrottlerGuard } from '../../common/throttling/named-throttler.guard';

export const TOKEN_IP_THROTTLER = 'token-ip';

/** Per-client-IP limit of the token route (TOKEN_RATE_LIMIT_PER_MINUTE; TRUST_PROXY decides the IP). */
@Injectable()
export class TokenIpThrottlerGuard extends NamedThrottlerGuard {
  protected readonly throttlerName = TOKEN_IP_THROTTLER;
  protected readonly limitDescription = 'too many token requests from this address';
}
