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

/** A reader scoped to the caller that says whether its scope reaches a shop (the digests). */
export interface ScopedToShops extends ScopedToCaller {
  /** Whether the claims reach this shop (exact code): a digest of any other shop is empty. */
  covers(shopCode: string): boolean;
}
