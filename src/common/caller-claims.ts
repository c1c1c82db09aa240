/**
 * Who is calling, from the verified token. Handlers receive it through auth's `@Caller()`; it lives
 * here so that common/ (cursors, pages) and backoffice/ (the scoped reader) can use it without
 * importing auth/.
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

/** Something bound to one caller's claims (the scoped reader); a page signs its cursor for them. */
export interface ScopedToCaller {
  readonly caller: CallerClaims;
}
