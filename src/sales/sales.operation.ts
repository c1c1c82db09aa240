import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { apiPath } from '../config/api-prefix';
import { ApiCursorEndpoint } from '../common/pagination/cursor-endpoint.decorator';
import { SALE_EXAMPLE } from './dto/sale.example';
import { SalesPageDto } from './dto/sales-page.dto';

/** OpenAPI documentation of GET /api/v1.0/sales. */
export const ApiListSales = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: apiPath('sales'),
    operationId: 'listSales',
    tag: 'Sales',
    summary: 'List sales with their lines',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, by `soldAt`.',
    page: SalesPageDto,
    example: SALE_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });
