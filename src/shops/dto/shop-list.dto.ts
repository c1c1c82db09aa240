import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ShopDto } from './shop.dto';

@ApiSchema({ name: 'ShopList', description: 'The shops of the token claims, in code order.' })
export class ShopListDto {
  @ApiProperty({ type: () => [ShopDto] })
  data!: ShopDto[];
}
