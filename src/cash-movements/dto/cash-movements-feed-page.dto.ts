import { ApiSchema } from '@nestjs/swagger';
import { FeedPageDto } from '../../common/pagination/feed-page.dto';
import { CashMovementDto } from './cash-movement.dto';

@ApiSchema({ name: 'CashMovementsFeedPage', description: 'A page of the feed of cash movements.' })
export class CashMovementsFeedPageDto extends FeedPageDto(CashMovementDto) {}
