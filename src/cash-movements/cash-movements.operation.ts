import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { apiPath } from '../config/api-prefix';
import { ApiCursorEndpoint } from '../common/pagination/cursor-endpoint.decorator';
import { CASH_MOVEMENT_EXAMPLE } from './dto/cash-movement.example';
import { CashMovementsPageDto } from './dto/cash-movements-page.dto';

/** OpenAPI documentation of GET /api/v1.0/cash-movements. */
export const ApiListCashMovements = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: apiPath('cash-movements'),
    operationId: 'listCashMovements',
    tag: 'Cash movements',
    summary: 'List register cash movements',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, by ' +
      '`movedAt`: opening floats, cash sales and refunds, cash in and out, closing counts.',
    page: CashMovementsPageDto,
    example: CASH_MOVEMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });
