import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { isPublicRoute } from '../../common/decorators/public.decorator';
import { unauthorized } from '../../common/errors/problem';
import { authorizationHeaderOf, bearerTokenOf } from '../bearer-token';
import { TokenRevocations } from '../token-revocations';

/** Says why a token was refused, without any detail of keys or signatures. */
function reasonOf(info: unknown): string {
  // Stryker disable next-line StringLiteral: equivalent: any other text that names no error below and holds neither 'audience' nor 'issuer' gives the same generic reason, as '' does
  const name = info instanceof Error ? info.name : '';
  // Stryker disable next-line StringLiteral: as the line above
  const message = info instanceof Error ? info.message : '';
  if (name === 'TokenExpiredError')
    return 'The token has expired: request a new one from /api/v1.0/Token.';
  if (name === 'NotBeforeError') return 'The token is not valid yet.';
  // Our own messages (jwt.strategy.ts, token-claims.ts): they name a claim, never a key.
  if (name === 'MalformedClaimsError') return `The token is invalid: ${message}.`;
  if (name === 'UnknownKeyError')
    return 'The token is invalid: it was not signed by a key of this service.';
  if (/audience/.test(message)) return 'The token is invalid: it was issued for another audience.';
  if (/issuer/.test(message)) return 'The token is invalid: it was issued by another issuer.';
  return 'The token is invalid.';
}

/**
 * App-wide guard, denies by default: every route needs `Authorization: Bearer <token>` unless it
 * is marked @Public(). Tokens are read from that header only, never from the URL. While the
 * revocation list is not current, every such route answers 503 (fails closed, issue 44).
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly revocations: TokenRevocations,
  ) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (isPublicRoute(this.reflector, context)) return true;
    this.revocations.assertCurrent();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    bearerTokenOf(authorizationHeaderOf(request.raw));
    return super.canActivate(context);
  }

  override handleRequest<TUser>(err: unknown, user: TUser | false, info: unknown): TUser {
    if (err || !user) throw unauthorized(reasonOf(err ?? info), 'invalid_token');
    return user;
  }
}
