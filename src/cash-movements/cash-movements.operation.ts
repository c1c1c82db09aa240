import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { apiPath } from '../config/api-prefix';
import { ApiCursorEndpoint } from '../common/pagination/cursor-endpoint.decorator';
import { ApiDigestEndpoint } from '../common/pagination/digest-endpoint.decorator';
import { ApiFeedEndpoint } from '../common/pagination/feed-endpoint.decorator';
import { FEED_QUERY } from '../common/pagination/feed-query';
import { CASH_MOVEMENT_EXAMPLE } from './dto/cash-movement.example';
import { CashMovementsPageDto } from './dto/cash-movements-page.dto';
import { CashMovementsFeedPageDto } from './dto/cash-movements-feed-page.dto';

/** OpenAPI documentation of GET /api/v1.0/cash-movements. */
export const ApiListCashMovements = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: apiPath('cash-movements'),
    operationId: 'listCashMovements',
    tag: 'Cash movements',
    summary: 'List register cash movements',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, by ' +
      '`movedAt`: opening floats, cash sales and refunds, cash in and out, closing counts.',
    page: CashMovementsPageDto,
    example: CASH_MOVEMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });

/** OpenAPI documentation of GET /api/v1.0/cash-movements/feed. */
export const ApiCashMovementsFeed = (): MethodDecorator =>
  ApiFeedEndpoint({
    path: apiPath('cash-movements/feed'),
    operationId: 'cashMovementsFeed',
    tag: 'Cash movements',
    summary: 'Register cash movements in the order they reached the back office',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, in arrival order (their id), whatever their `movedAt`. The back office records no arrival time for a movement, so this feed takes no From: its first call starts at the first movement.',
    page: CashMovementsFeedPageDto,
    query: FEED_QUERY,
    example: CASH_MOVEMENT_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });

/** OpenAPI documentation of GET /api/v1.0/cash-movements/digest. */
export const ApiCashMovementsDigest = (): MethodDecorator =>
  ApiDigestEndpoint({
    path: apiPath('cash-movements/digest'),
    operationId: 'cashMovementsDigest',
    tag: 'Cash movements',
    records: 'cash movements (dated by `movedAt`)',
    list: 'GET /api/v1.0/cash-movements',
    problems: BEARER_PROBLEMS,
  });
