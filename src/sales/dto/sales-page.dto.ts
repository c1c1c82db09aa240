import { ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../common/pagination/page.dto';
import { SaleDto } from './sale.dto';

@ApiSchema({ name: 'SalesPage', description: 'A page of sales.' })
export class SalesPageDto extends PageDto(SaleDto) {}
