const PERIOD = 'From=2026-03-01&To=2026-03-02';

/**
 * Every data route with a query it answers 200 for a token of `shop` (a digest names its shop),
 * relative to /api/v1.0/: what the specs of every route's headers send.
 */
export function dataRoutes(shop: string): string[] {
  return [
    'shops',
    `sales?${PERIOD}`,
    `payments?${PERIOD}`,
    `cash-movements?${PERIOD}`,
    'sales/feed',
    'payments/feed',
    'cash-movements/feed',
    `sales/digest?ShopCode=${shop}&${PERIOD}`,
    `payments/digest?ShopCode=${shop}&${PERIOD}`,
    `cash-movements/digest?ShopCode=${shop}&${PERIOD}`,
  ];
}
