import { ApiSchema } from '@nestjs/swagger';
import { FeedPageDto } from '../../common/pagination/feed-page.dto';
import { SaleDto } from './sale.dto';

@ApiSchema({ name: 'SalesFeedPage', description: 'A page of the feed of sales.' })
export class SalesFeedPageDto extends FeedPageDto(SaleDto) {}
