import { Controller, Get, Query } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ShopScopedReaders } from '../backoffice/shop-scoped-reader';
import { KeysetPaginator } from '../common/pagination/keyset-paginator';
import { Page } from '../common/pagination/keyset-resource';
import { RawQuery } from '../common/pagination/query-parameters';
import { ApiListSales } from '../openapi/operations/sales.operation';
import { SaleRecord } from './sale.record';
import { SALES } from './sales.resource';

@Controller('api/v1.0')
export class SalesController {
  constructor(
    private readonly paginator: KeysetPaginator,
    private readonly readers: ShopScopedReaders,
  ) {}

  /** Sales with their lines, of the token's shops, in (soldAt, id) order, by cursor. */
  @Get('sales')
  @ApiListSales()
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<Page<SaleRecord>> {
    return this.paginator.page(SALES, this.readers.for(caller), query);
  }
}
