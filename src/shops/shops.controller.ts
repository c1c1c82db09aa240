import { Controller, Get } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { Wall } from '../wall/wall';
import { ShopListDto } from './dto/shop-list.dto';
import { toShop } from './shop.mapper';
import { ApiListShops } from './shops.operation';
import { ApiTagDescription } from '../common/openapi/api-tag';

@Controller()
@ApiTagDescription('Shops', 'The shops a token may read.')
export class ShopsController {
  constructor(private readonly wall: Wall) {}

  /** The shops the token may read: its shop_code claims, as the back-office describes them. */
  @Get('shops')
  @ApiListShops()
  async list(@Caller() caller: CallerClaims): Promise<ShopListDto> {
    const shops = await this.wall.shops(caller);
    return { data: shops.map(toShop) };
  }
}
