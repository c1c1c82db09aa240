import { CASH_DRAWER_SESSIONS_RESOURCE } from './cash-drawer-sessions/cash-drawer-sessions.resource';
import { CASH_MOVEMENTS_RESOURCE } from './cash-movements/cash-movements.resource';
import { PAYMENTS_RESOURCE } from './payments/payments.resource';
import { SALES_RESOURCE } from './sales/sales.resource';

/**
 * Every resource of the API, each declared once in its folder (`<resource>.resource.ts`), in the
 * document's order. The routes (ResourcesModule), the feed-index check, the seed's tables, the
 * schema and grant checks and the end-to-end lists read this list; none lists resources again.
 */
export const CATALOGUE = [
  SALES_RESOURCE,
  PAYMENTS_RESOURCE,
  CASH_MOVEMENTS_RESOURCE,
  CASH_DRAWER_SESSIONS_RESOURCE,
] as const;

/**
 * What the day close (GET /business-days, src/business-days) reads: these resources' sources,
 * mappers and digest fields, as the lists and digests use them.
 */
export const DAY_CLOSE = {
  sales: SALES_RESOURCE,
  payments: PAYMENTS_RESOURCE,
  cashMovements: CASH_MOVEMENTS_RESOURCE,
  sessions: CASH_DRAWER_SESSIONS_RESOURCE,
};
