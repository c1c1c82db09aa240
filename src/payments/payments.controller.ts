import { Controller, Get, Query } from '@nestjs/common';
import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { Caller, CallerClaims } from '../auth/caller';
import { FEED } from '../backoffice/modes/feed.mode';
import { LIST } from '../backoffice/modes/list.mode';
import { pagedEndpoint, Paginator } from '../backoffice/paginator';
import { ApiPageEndpoint } from '../common/pagination/page-endpoint.decorator';
import { RawQuery } from '../common/pagination/query-parameters';
import { PAYMENT_EXAMPLE } from './dto/payment.dto';
import { PaymentsFeedPageDto, PaymentsPageDto } from './dto/payments-pages.dto';
import { toPaymentRecord } from './payment.mapper';
import { PAYMENTS } from './payments.source';

/** GET /payments: pages of the caller's payments, by paidAt. */
export const PAYMENTS_LIST = pagedEndpoint('payments', LIST, PAYMENTS, toPaymentRecord);

/** GET /payments/feed: the caller's payments in arrival order, as GET /payments maps them. */
export const PAYMENTS_FEED = pagedEndpoint('payments', FEED, PAYMENTS, toPaymentRecord);

@Controller()
export class PaymentsController {
  constructor(private readonly pages: Paginator) {}

  /** Payments of sales, of the token's shops, in (paidAt, id) order, by cursor. */
  @Get(PAYMENTS_LIST.route)
  @ApiPageEndpoint(PAYMENTS_LIST, {
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments of sales',
    description:
      'Payments of the sales of the shops in the token claims, by `paidAt`; refunds are negative.',
    page: PaymentsPageDto,
    example: PAYMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  })
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<PaymentsPageDto> {
    return this.pages.read(PAYMENTS_LIST, caller, query);
  }

  /** Payments of the token's shops in arrival (id) order, by stored cursor. */
  @Get(PAYMENTS_FEED.route)
  @ApiPageEndpoint(PAYMENTS_FEED, {
    operationId: 'paymentsFeed',
    tag: 'Payments',
    summary: 'Payments in the order they reached the back office',
    description:
      'Payments of the sales of the shops in the token claims, in arrival order (their id), whatever their `paidAt`. The back office records no arrival time for a payment, so this feed takes no From: its first call starts at the first payment.',
    page: PaymentsFeedPageDto,
    example: PAYMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  })
  feed(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<PaymentsFeedPageDto> {
    return this.pages.read(PAYMENTS_FEED, caller, query);
  }
}
