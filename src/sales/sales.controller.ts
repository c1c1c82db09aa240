import { Controller, Get, Query } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ShopScopedReaders } from '../backoffice/shop-scoped-reader';
import { KeysetPaginator } from '../common/pagination/keyset-paginator';
import { DigestDto } from '../common/pagination/digest.dto';
import { RawQuery } from '../common/pagination/query-parameters';
import { SalesPageDto } from './dto/sales-page.dto';
import { SalesFeedPageDto } from './dto/sales-feed-page.dto';
import { SALES, SALES_FEED, SALES_DIGEST } from './sales.resource';
import { ApiListSales, ApiSalesFeed, ApiSalesDigest } from './sales.operation';

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

  /** A count and a checksum per date of one shop's sales, over what the list returns. */
  @Get('sales/digest')
  @ApiSalesDigest()
  digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
    return this.paginator.digest(SALES_DIGEST, this.readers.for(caller), query);
  }
}
