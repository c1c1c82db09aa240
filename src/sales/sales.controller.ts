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
import { SALE_EXAMPLE } from './dto/sale.dto';
import { SalesFeedPageDto, SalesPageDto } from './dto/sales-pages.dto';
import { toCanonicalSale, toSaleRecord } from './sale.mapper';
import { SALES } from './sales.source';
import { ApiTagDescription } from '../common/openapi/api-tag';

/** GET /sales: pages of the caller's sales with their lines, by soldAt. */
export const SALES_LIST = pagedEndpoint('sales', LIST, SALES, toSaleRecord);

/** GET /sales/feed: the caller's sales in arrival order, as GET /sales maps them. */
export const SALES_FEED = pagedEndpoint('sales', FEED, SALES, toSaleRecord);

/** GET /sales/digest: a count and checksum per date of `soldAt`, over GET /sales's records. */
export const SALES_DIGEST: DigestEndpoint<
  SourceRow<typeof SALES>,
  ReturnType<typeof SALES_LIST.toRecord>
> = {
  list: SALES_LIST,
  canonical: toCanonicalSale,
};

@Controller()
@ApiTagDescription('Sales', 'Sales with their lines, by cursor.')
export class SalesController {
  constructor(private readonly pages: Paginator) {}

  /** Sales with their lines, of the token's shops, in (soldAt, id) order, by cursor. */
  @Get(SALES_LIST.route)
  @ApiPageEndpoint(SALES_LIST, {
    operationId: 'listSales',
    tag: 'Sales',
    summary: 'List sales with their lines',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, by `soldAt`.',
    page: SalesPageDto,
    example: SALE_EXAMPLE,
    problems: BEARER_PROBLEMS,
  })
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<SalesPageDto> {
    return this.pages.read(SALES_LIST, caller, query);
  }

  /** Sales of the token's shops in arrival (id) order, by stored cursor. */
  @Get(SALES_FEED.route)
  @ApiPageEndpoint(SALES_FEED, {
    operationId: 'salesFeed',
    tag: 'Sales',
    summary: 'Sales with their lines in the order they reached the back office',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, in arrival order: a sale rung up offline and uploaded days later comes after the sales that arrived before it, whatever its `soldAt`. From selects the sales that arrived since then (`created_at`).',
    page: SalesFeedPageDto,
    example: SALE_EXAMPLE,
    problems: BEARER_PROBLEMS,
  })
  feed(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<SalesFeedPageDto> {
    return this.pages.read(SALES_FEED, caller, query);
  }

  /** A count and a checksum per date of one shop's sales, over what the list returns. */
  @Get('sales/digest')
  @DigestBudget()
  @ApiDigestEndpoint({
    path: apiPath('sales/digest'),
    operationId: 'salesDigest',
    tag: 'Sales',
    records: 'sales (dated by `soldAt`)',
    list: 'GET /api/v1.0/sales',
    problems: BEARER_PROBLEMS,
  })
  digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
    return this.pages.digest(SALES_DIGEST, caller, query);
  }
}
