import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { Shop } from '../../shops/shop.record';
import { CURRENCY, SHOP_CODE } from './value-formats';

@ApiSchema({ name: 'Shop', description: 'A shop the token may read.' })
export class ShopSchema implements Shop {
  @ApiProperty(SHOP_CODE)
  code!: string;

  @ApiProperty({ type: String, description: 'Name of the shop.', example: 'Mercado Sol Centro' })
  name!: string;

  @ApiProperty({
    type: String,
    description: 'IANA time zone of the shop: the zone its local date-times are in.',
    example: 'Europe/Madrid',
  })
  timeZone!: string;

  @ApiProperty(CURRENCY)
  currency!: string;
}

@ApiSchema({ name: 'ShopList', description: 'The shops of the token claims, in code order.' })
export class ShopListSchema {
  @ApiProperty({ type: () => [ShopSchema] })
  data!: ShopSchema[];
}
