import { ApiSchema } from '@nestjs/swagger';
import { FEED } from '../../backoffice/modes/feed.mode';
import { LIST } from '../../backoffice/modes/list.mode';
import { PageDto } from '../../common/pagination/page.dto';
import { SaleDto } from './sale.dto';

@ApiSchema({ name: 'SalesPage', description: 'A page of sales.' })
export class SalesPageDto extends PageDto<SaleDto, { nextCursor: string | null }>(
  SaleDto,
  LIST.docs,
) {}

@ApiSchema({ name: 'SalesFeedPage', description: 'A page of the feed of sales.' })
export class SalesFeedPageDto extends PageDto<SaleDto, { nextCursor: string; caughtUp: boolean }>(
  SaleDto,
  FEED.docs,
) {}
