import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { ApiProblemResponses } from '../common/openapi/problem-responses';
import { apiPath } from '../config/api-prefix';
import { SHOP_EXAMPLE } from './dto/shop.example';
import { ShopListDto } from './dto/shop-list.dto';

/** OpenAPI documentation of GET /api/v1.0/shops. */
export const ApiListShops = (): MethodDecorator =>
  applyDecorators(
    ApiTags('Shops'),
    ApiOperation({
      operationId: 'listShops',
      summary: 'List the shops the token may read',
      description:
        'The shops of the token `shop_code` claims, with the time zone their local date-times ' +
        'are in and their currency. A shop granted after the token was issued appears only in a ' +
        'new token.',
    }),
    ApiOkResponse({
      type: ShopListDto,
      description: 'The shops, in code order (not paginated).',
      example: { data: [SHOP_EXAMPLE] },
    }),
    ApiProblemResponses(apiPath('shops'), BEARER_PROBLEMS),
  );
