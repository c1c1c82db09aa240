import { ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../common/pagination/page.dto';
import { PaymentDto } from './payment.dto';

@ApiSchema({ name: 'PaymentsPage', description: 'A page of payments.' })
export class PaymentsPageDto extends PageDto(PaymentDto) {}
