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
import { toCanonicalCashMovement, toCashMovementRecord } from './cash-movement.mapper';
import { CASH_MOVEMENTS } from './cash-movements.source';
import { CASH_MOVEMENT_EXAMPLE } from './dto/cash-movement.dto';
import { CashMovementsFeedPageDto, CashMovementsPageDto } from './dto/cash-movements-pages.dto';
import { ApiTagDescription } from '../common/openapi/api-tag';

/** GET /cash-movements: pages of the caller's cash movements, by movedAt. */
export const CASH_MOVEMENTS_LIST = pagedEndpoint(
  'cash-movements',
  LIST,
  CASH_MOVEMENTS,
  toCashMovementRecord,
);

/** GET /cash-movements/feed: the caller's cash movements in arrival order. */
export const CASH_MOVEMENTS_FEED = pagedEndpoint(
  'cash-movements',
  FEED,
  CASH_MOVEMENTS,
  toCashMovementRecord,
);

/** GET /cash-movements/digest: a count and checksum per date of `movedAt`, over GET /cash-movements's records. */
export const CASH_MOVEMENTS_DIGEST: DigestEndpoint<
  SourceRow<typeof CASH_MOVEMENTS>,
  ReturnType<typeof CASH_MOVEMENTS_LIST.toRecord>
> = {
  list: CASH_MOVEMENTS_LIST,
  canonical: toCanonicalCashMovement,
};

@Controller()
@ApiTagDescription('Cash movements', 'Movements of register cash drawers, by cursor.')
export class CashMovementsController {
  constructor(private readonly pages: Paginator) {}

  /** Register cash movements, of the token's shops, in (movedAt, id) order, by cursor. */
  @Get(CASH_MOVEMENTS_LIST.route)
  @ApiPageEndpoint(CASH_MOVEMENTS_LIST, {
    operationId: 'listCashMovements',
    tag: 'Cash movements',
    summary: 'List register cash movements',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, by ' +
      '`movedAt`: opening floats, cash sales and refunds, cash in and out, closing counts.',
    page: CashMovementsPageDto,
    example: CASH_MOVEMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  })
  list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<CashMovementsPageDto> {
    return this.pages.read(CASH_MOVEMENTS_LIST, caller, query);
  }

  /** Cash movements of the token's shops in arrival (id) order, by stored cursor. */
  @Get(CASH_MOVEMENTS_FEED.route)
  @ApiPageEndpoint(CASH_MOVEMENTS_FEED, {
    operationId: 'cashMovementsFeed',
    tag: 'Cash movements',
    summary: 'Register cash movements in the order they reached the back office',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, in arrival order (their id), whatever their `movedAt`. The back office records no arrival time for a movement, so this feed takes no From: its first call starts at the first movement.',
    page: CashMovementsFeedPageDto,
    example: CASH_MOVEMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  })
  feed(
    @Caller() caller: CallerClaims,
    @Query() query: RawQuery,
  ): Promise<CashMovementsFeedPageDto> {
    return this.pages.read(CASH_MOVEMENTS_FEED, caller, query);
  }

  /** A count and a checksum per date of one shop's cash movements, over what the list returns. */
  @Get('cash-movements/digest')
  @DigestBudget()
  @ApiDigestEndpoint({
    path: apiPath('cash-movements/digest'),
    operationId: 'cashMovementsDigest',
    tag: 'Cash movements',
    records: 'cash movements (dated by `movedAt`)',
    list: 'GET /api/v1.0/cash-movements',
    problems: BEARER_PROBLEMS,
  })
  digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
    return this.pages.digest(CASH_MOVEMENTS_DIGEST, caller, query);
  }
}
