import { DigestBudget } from '../common/throttling/digest-budget';
import { Controller, Get, Query } from '@nestjs/common';
import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { Caller, CallerClaims } from '../auth/caller';
import type { SourceRow } from '../backoffice/source';
import { apiPath } from '../config/api-prefix';
import { FEED } from '../backoffice/modes/feed.mode';
import { LIST } from '../backoffice/modes/list.mode';
import type { DigestEndpoint } from '../backoffice/modes/digest.mode';
import { pagedEndpoint } from '../backoffice/paged-endpoint';
import { Paginator } from '../backoffice/paginator';
import { ApiDigestEndpoint } from '../common/pagination/digest-endpoint.decorator';
import { DigestDto } from '../common/pagination/digest.dto';
import { ApiPageEndpoint } from '../common/pagination/page-endpoint.decorator';
import { RawQuery } from '../common/pagination/query-parameters';
import { PAYMENT_EXAMPLE } from './dto/payment.dto';
import { PaymentsFeedPageDto, PaymentsPageDto } from './dto/payments-pages.dto';
import { toCanonicalPayment, toPaymentRecord } from './payment.mapper';
import { PAYMENTS } from './payments.source';
import { ApiTagDescription } from '../common/openapi/api-tag';

/** GET /payments: pages of the caller's payments, by paidAt. */
export const PAYMENTS_LIST = pagedEndpoint('payments', LIST, PAYMENTS, toPaymentRecord);

/** GET /payments/feed: the caller's payments in arrival order, as GET /payments maps them. */
export const PAYMENTS_FEED = pagedEndpoint('payments', FEED, PAYMENTS, toPaymentRecord);

/** GET /payments/digest: a count and checksum per date of `paidAt`, over GET /payments's records. */
export const PAYMENTS_DIGEST: DigestEndpoint<
  SourceRow<typeof PAYMENTS>,
  ReturnType<typeof PAYMENTS_LIST.toRecord>
> = {
  list: PAYMENTS_LIST,
  canonical: toCanonicalPayment,
};

@Controller()
@ApiTagDescription('Payments', 'Payments of sales, by cursor.')
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

  /** A count and a checksum per date of one shop's payments, over what the list returns. */
  @Get('payments/digest')
  @DigestBudget()
  @ApiDigestEndpoint({
    path: apiPath('payments/digest'),
    operationId: 'paymentsDigest',
    tag: 'Payments',
    records: 'payments (dated by `paidAt`)',
    list: 'GET /api/v1.0/payments',
    problems: BEARER_PROBLEMS,
  })
  digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
    return this.pages.digest(PAYMENTS_DIGEST, caller, query);
  }
}
