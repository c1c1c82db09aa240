import { CASH_MOVEMENT_EXAMPLE } from '../examples/record.examples';
import { CashMovementsPageSchema } from '../schemas/page.schema';
import { ApiCursorEndpoint } from './cursor-endpoint.decorator';

/** OpenAPI documentation of GET /api/v1.0/cash-movements. */
export const ApiListCashMovements = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: '/api/v1.0/cash-movements',
    operationId: 'listCashMovements',
    tag: 'Cash movements',
    summary: 'List register cash movements',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, by ' +
      '`movedAt`: opening floats, cash sales and refunds, cash in and out, closing counts.',
    page: CashMovementsPageSchema,
    example: CASH_MOVEMENT_EXAMPLE,
  });
