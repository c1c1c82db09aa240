/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * `npm run generate -w @pos-read-api/client`.
 */
import { CursorResource } from '../resources.js';
import type { Transport } from '../transport.js';
import type { components } from './openapi.js';

type Schemas = components['schemas'];

/** The API's cursor resources: one per list operation, with its feed, digest and bulk read where it has them. */
export class CursorResources {
  /** /api/v1.0/sales: list, feed, digest, bulk. */
  readonly sales: CursorResource<Schemas['Sale']>;
  /** /api/v1.0/payments: list, feed, digest, bulk. */
  readonly payments: CursorResource<Schemas['Payment']>;
  /** /api/v1.0/cash-movements: list, feed, digest, bulk. */
  readonly cashMovements: CursorResource<Schemas['CashMovement']>;
  /** /api/v1.0/cash-drawer-sessions: list, bulk. */
  readonly cashDrawerSessions: Pick<CursorResource<Schemas['CashDrawerSession']>, 'list' | 'bulk'>;

  constructor(transport: Transport) {
    this.sales = new CursorResource(transport, '/api/v1.0/sales');
    this.payments = new CursorResource(transport, '/api/v1.0/payments');
    this.cashMovements = new CursorResource(transport, '/api/v1.0/cash-movements');
    this.cashDrawerSessions = new CursorResource(transport, '/api/v1.0/cash-drawer-sessions');
  }
}
