import { Controller, Get, Query } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ShopScopedReaders } from '../backoffice/shop-scoped-reader';
import { KeysetPaginator } from '../common/pagination/keyset-paginator';
import { Page } from '../common/pagination/keyset-resource';
import { RawQuery } from '../common/pagination/query-parameters';
import { ApiListPayments } from '../openapi/operations/payments.operation';
import { PaymentRecord, PAYMENTS } from './payments.resource';

@Controller('api/v1.0')
export class PaymentsController {
  constructor(
    private readonly paginator: KeysetPaginator,
    private readonly readers: ShopScopedReaders,
  ) {}

  /** Payments of sales, of the token's shops, in (paidAt, id) order, by cursor. */
  @Get('payments')
  @ApiListPayments()
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<Page<PaymentRecord>> {
    return this.paginator.page(PAYMENTS, this.readers.for(caller), query);
  }
}
