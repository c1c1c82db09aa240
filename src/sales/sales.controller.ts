import { Controller, Get, Query } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ShopScopedReaders } from '../backoffice/shop-scoped-reader';
import { KeysetPaginator } from '../common/pagination/keyset-paginator';
import { RawQuery } from '../common/pagination/query-parameters';
import { SalesPageDto } from './dto/sales-page.dto';
import { SalesFeedPageDto } from './dto/sales-feed-page.dto';
import { SALES, SALES_FEED } from './sales.resource';
import { ApiListSales, ApiSalesFeed } from './sales.operation';

@Controller()
export class SalesController {
  constructor(
    private readonly paginator: KeysetPaginator,
    private readonly readers: ShopScopedReaders,
  ) {}

  /** Sales with their lines, of the token's shops, in (soldAt, id) order, by cursor. */
  @Get('sales')
  @ApiListSales()
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<SalesPageDto> {
    return this.paginator.page(SALES, this.readers.for(caller), query);
  }

  /** Sales of the token's shops in arrival (id) order, by stored cursor. */
  @Get('sales/feed')
  @ApiSalesFeed()
  feed(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<SalesFeedPageDto> {
    return this.paginator.feed(SALES_FEED, this.readers.for(caller), query);
  }
}
