import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { apiPath } from '../config/api-prefix';
import { ApiCursorEndpoint } from '../common/pagination/cursor-endpoint.decorator';
import { ApiDigestEndpoint } from '../common/pagination/digest-endpoint.decorator';
import { ApiFeedEndpoint } from '../common/pagination/feed-endpoint.decorator';
import { ARRIVED_FEED_QUERY } from '../common/pagination/feed-query';
import { SALE_EXAMPLE } from './dto/sale.example';
import { SalesPageDto } from './dto/sales-page.dto';
import { SalesFeedPageDto } from './dto/sales-feed-page.dto';

/** OpenAPI documentation of GET /api/v1.0/sales. */
export const ApiListSales = (): MethodDecorator =>
  ApiCursorEndpoint({
    path: apiPath('sales'),
    operationId: 'listSales',
    tag: 'Sales',
    summary: 'List sales with their lines',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, by `soldAt`.',
    page: SalesPageDto,
    example: SALE_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });

/** OpenAPI documentation of GET /api/v1.0/sales/feed. */
export const ApiSalesFeed = (): MethodDecorator =>
  ApiFeedEndpoint({
    path: apiPath('sales/feed'),
    operationId: 'salesFeed',
    tag: 'Sales',
    summary: 'Sales with their lines in the order they reached the back office',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, in arrival order: a sale rung up offline and uploaded days later comes after the sales that arrived before it, whatever its `soldAt`. From selects the sales that arrived since then (`created_at`).',
    page: SalesFeedPageDto,
    query: ARRIVED_FEED_QUERY,
    example: SALE_EXAMPLE,
    problems: BEARER_PROBLEMS,
  });

/** OpenAPI documentation of GET /api/v1.0/sales/digest. */
export const ApiSalesDigest = (): MethodDecorator =>
  ApiDigestEndpoint({
    path: apiPath('sales/digest'),
    operationId: 'salesDigest',
    tag: 'Sales',
    records: 'sales (dated by `soldAt`)',
    list: 'GET /api/v1.0/sales',
    problems: BEARER_PROBLEMS,
  });
