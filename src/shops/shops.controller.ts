import { Controller, Get } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ShopsRepository } from '../backoffice/shops.repository';
import { ShopListDto } from './dto/shop-list.dto';
import { ApiListShops } from './shops.operation';

@Controller()
export class ShopsController {
  constructor(private readonly shops: ShopsRepository) {}

  /** The shops the token may read: its shop_code claims, as the back-office describes them. */
  @Get('shops')
  @ApiListShops()
  async list(@Caller() caller: CallerClaims): Promise<ShopListDto> {
    return { data: await this.shops.findByCodes(caller.shopCodes) };
  }
}
