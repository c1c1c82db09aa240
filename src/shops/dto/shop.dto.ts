import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../../common/openapi/value-formats';

/** A shop the token may read, as GET /shops returns it. */
@ApiSchema({ name: 'Shop', description: 'A shop the token may read.' })
export class ShopDto {
  @ApiProperty(format.SHOP_CODE)
  code!: string;

  @ApiProperty({ type: String, description: 'Name of the shop.', example: 'Mercado Sol Centro' })
  name!: string;

  @ApiProperty({
    type: String,
    description: 'IANA time zone of the shop: the zone its local date-times are in.',
    example: 'Europe/Madrid',
  })
  timeZone!: string;

  @ApiProperty(format.CURRENCY)
  currency!: string;
}
