import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { apiPath } from '../config/api-prefix';
import { ApiCursorEndpoint } from '../common/pagination/cursor-endpoint.decorator';
import { PAYMENT_EXAMPLE } from './dto/payment.example';
import { PaymentsPageDto } from './dto/payments-page.dto';

/** OpenAPI documentation of GET /api/v1.0/payments. */
export const ApiListPayments = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: apiPath('payments'),
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments of sales',
    description:
      'Payments of the sales of the shops in the token claims, by `paidAt`; refunds are negative.',
    page: PaymentsPageDto,
    example: PAYMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });
