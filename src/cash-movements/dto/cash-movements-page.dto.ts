import { ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../common/pagination/page.dto';
import { CashMovementDto } from './cash-movement.dto';

@ApiSchema({ name: 'CashMovementsPage', description: 'A page of cash movements.' })
export class CashMovementsPageDto extends PageDto(CashMovementDto) {}
