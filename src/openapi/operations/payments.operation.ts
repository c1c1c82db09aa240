import { PAYMENT_EXAMPLE } from '../examples/record.examples';
import { PaymentsPageSchema } from '../schemas/page.schema';
import { ApiCursorEndpoint } from './cursor-endpoint.decorator';

/** OpenAPI documentation of GET /api/v1.0/payments. */
export const ApiListPayments = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: '/api/v1.0/payments',
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments of sales',
    description:
      'Payments of the sales of the shops in the token claims, by `paidAt`; refunds are negative.',
    page: PaymentsPageSchema,
    example: PAYMENT_EXAMPLE,
  });
