/**
 * Who is calling, from the verified token. Handlers receive it through auth's `@Caller()`; it lives
 * here so that the layers below auth (the wall, the cursors) can use it without importing auth/.
 */
export interface CallerClaims {
  /** Back-office user id (`sub`). */
  userId: string;
  username: string;
  roles: string[];
  /** Shops the token may read (`shop_code` claims), fixed at issue. */
  shopCodes: string[];
  tokenId: string;
}
