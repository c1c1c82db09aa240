import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { apiPath } from '../config/api-prefix';
import { ApiCursorEndpoint } from '../common/pagination/cursor-endpoint.decorator';
import { ApiDigestEndpoint } from '../common/pagination/digest-endpoint.decorator';
import { ApiFeedEndpoint } from '../common/pagination/feed-endpoint.decorator';
import { FEED_QUERY } from '../common/pagination/feed-query';
import { PAYMENT_EXAMPLE } from './dto/payment.example';
import { PaymentsPageDto } from './dto/payments-page.dto';
import { PaymentsFeedPageDto } from './dto/payments-feed-page.dto';

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

/** OpenAPI documentation of GET /api/v1.0/payments/feed. */
export const ApiPaymentsFeed = (): MethodDecorator =>
  ApiFeedEndpoint({
    path: apiPath('payments/feed'),
    operationId: 'paymentsFeed',
    tag: 'Payments',
    summary: 'Payments in the order they reached the back office',
    description:
      'Payments of the sales of the shops in the token claims, in arrival order (their id), whatever their `paidAt`. The back office records no arrival time for a payment, so this feed takes no From: its first call starts at the first payment.',
    page: PaymentsFeedPageDto,
    query: FEED_QUERY,
    example: PAYMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });

/** OpenAPI documentation of GET /api/v1.0/payments/digest. */
export const ApiPaymentsDigest = (): MethodDecorator =>
  ApiDigestEndpoint({
    path: apiPath('payments/digest'),
    operationId: 'paymentsDigest',
    tag: 'Payments',
    records: 'payments (dated by `paidAt`)',
    list: 'GET /api/v1.0/payments',
    problems: BEARER_PROBLEMS,
  });
