import { Controller, Get, Query } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ShopScopedReaders } from '../backoffice/shop-scoped-reader';
import { KeysetPaginator } from '../common/pagination/keyset-paginator';
import { DigestDto } from '../common/pagination/digest.dto';
import { RawQuery } from '../common/pagination/query-parameters';
import { PaymentsPageDto } from './dto/payments-page.dto';
import { PaymentsFeedPageDto } from './dto/payments-feed-page.dto';
import { ApiListPayments, ApiPaymentsFeed, ApiPaymentsDigest } from './payments.operation';
import { PAYMENTS, PAYMENTS_FEED, PAYMENTS_DIGEST } from './payments.resource';

@Controller()
export class PaymentsController {
  constructor(
    private readonly paginator: KeysetPaginator,
    private readonly readers: ShopScopedReaders,
  ) {}

  /** Payments of sales, of the token's shops, in (paidAt, id) order, by cursor. */
  @Get('payments')
  @ApiListPayments()
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<PaymentsPageDto> {
    return this.paginator.page(PAYMENTS, this.readers.for(caller), query);
  }

  /** Payments of the token's shops in arrival (id) order, by stored cursor. */
  @Get('payments/feed')
  @ApiPaymentsFeed()
  feed(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<PaymentsFeedPageDto> {
    return this.paginator.feed(PAYMENTS_FEED, this.readers.for(caller), query);
  }

  /** A count and a checksum per date of one shop's payments, over what the list returns. */
  @Get('payments/digest')
  @ApiPaymentsDigest()
  digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
    return this.paginator.digest(PAYMENTS_DIGEST, this.readers.for(caller), query);
  }
}
