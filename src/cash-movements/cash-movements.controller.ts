import { Controller, Get, Query } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ShopScopedReaders } from '../backoffice/shop-scoped-reader';
import { KeysetPaginator } from '../common/pagination/keyset-paginator';
import { DigestDto } from '../common/pagination/digest.dto';
import { RawQuery } from '../common/pagination/query-parameters';
import {
  ApiListCashMovements,
  ApiCashMovementsFeed,
  ApiCashMovementsDigest,
} from './cash-movements.operation';
import {
  CASH_MOVEMENTS,
  CASH_MOVEMENTS_FEED,
  CASH_MOVEMENTS_DIGEST,
} from './cash-movements.resource';
import { CashMovementsPageDto } from './dto/cash-movements-page.dto';
import { CashMovementsFeedPageDto } from './dto/cash-movements-feed-page.dto';

@Controller()
export class CashMovementsController {
  constructor(
    private readonly paginator: KeysetPaginator,
    private readonly readers: ShopScopedReaders,
  ) {}

  /** Register cash movements, of the token's shops, in (movedAt, id) order, by cursor. */
  @Get('cash-movements')
  @ApiListCashMovements()
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<CashMovementsPageDto> {
    return this.paginator.page(CASH_MOVEMENTS, this.readers.for(caller), query);
  }

  /** Cash movements of the token's shops in arrival (id) order, by stored cursor. */
  @Get('cash-movements/feed')
  @ApiCashMovementsFeed()
  feed(
    @Caller() caller: CallerClaims,
    @Query() query: RawQuery,
  ): Promise<CashMovementsFeedPageDto> {
    return this.paginator.feed(CASH_MOVEMENTS_FEED, this.readers.for(caller), query);
  }

  /** A count and a checksum per date of one shop's cash movements, over what the list returns. */
  @Get('cash-movements/digest')
  @ApiCashMovementsDigest()
  digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
    return this.paginator.digest(CASH_MOVEMENTS_DIGEST, this.readers.for(caller), query);
  }
}
