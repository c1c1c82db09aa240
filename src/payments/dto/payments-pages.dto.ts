import { ApiSchema } from '@nestjs/swagger';
import { FEED } from '../../backoffice/modes/feed.mode';
import { LIST } from '../../backoffice/modes/list.mode';
import { PageDto } from '../../common/pagination/page.dto';
import { PaymentDto } from './payment.dto';

@ApiSchema({ name: 'PaymentsPage', description: 'A page of payments.' })
export class PaymentsPageDto extends PageDto<PaymentDto, { nextCursor: string | null }>(
  PaymentDto,
  LIST.docs,
) {}

@ApiSchema({ name: 'PaymentsFeedPage', description: 'A page of the feed of payments.' })
export class PaymentsFeedPageDto extends PageDto<
  PaymentDto,
  { nextCursor: string; caughtUp: boolean }
>(PaymentDto, FEED.docs) {}
