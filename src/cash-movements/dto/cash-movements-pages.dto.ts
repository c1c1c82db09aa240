import { ApiSchema } from '@nestjs/swagger';
import { FEED } from '../../backoffice/modes/feed.mode';
import { LIST } from '../../backoffice/modes/list.mode';
import { PageDto } from '../../common/pagination/page.dto';
import { CashMovementDto } from './cash-movement.dto';

@ApiSchema({ name: 'CashMovementsPage', description: 'A page of cash movements.' })
export class CashMovementsPageDto extends PageDto<CashMovementDto, { nextCursor: string | null }>(
  CashMovementDto,
  LIST.docs,
) {}

@ApiSchema({ name: 'CashMovementsFeedPage', description: 'A page of the feed of cash movements.' })
export class CashMovementsFeedPageDto extends PageDto<
  CashMovementDto,
  { nextCursor: string; caughtUp: boolean }
>(CashMovementDto, FEED.docs) {}
