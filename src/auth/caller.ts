import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Who is calling, from the verified token. Handlers receive it through `@Caller()`. */
export interface CallerClaims {
  /** Back-office user id (`sub`). */
  userId: string;
  username: string;
  roles: string[];
  /** Shops the token may read (`shop_code` claims), fixed at issue. */
  shopCodes: string[];
  tokenId: string;
}

export const API_USER_ROLE = 'ApiUser';

/** The verified caller; only on routes behind the bearer guard (every route but the token route). */
export const Caller = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): CallerClaims => {
    const request = ctx.switchToHttp().getRequest<{ user?: CallerClaims }>();
    if (!request.user) throw new Error('Caller used on a route without authentication');
    return request.user;
  },
);
