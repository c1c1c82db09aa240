import { SALE_EXAMPLE } from '../examples/record.examples';
import { SalesPageSchema } from '../schemas/page.schema';
import { ApiCursorEndpoint } from './cursor-endpoint.decorator';

/** OpenAPI documentation of GET /api/v1.0/sales. */
export const ApiListSales = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: '/api/v1.0/sales',
    operationId: 'listSales',
    tag: 'Sales',
    summary: 'List sales with their lines',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, by `soldAt`.',
    page: SalesPageSchema,
    example: SALE_EXAMPLE,
  });
