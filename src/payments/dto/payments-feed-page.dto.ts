import { ApiSchema } from '@nestjs/swagger';
import { FeedPageDto } from '../../common/pagination/feed-page.dto';
import { PaymentDto } from './payment.dto';

@ApiSchema({ name: 'PaymentsFeedPage', description: 'A page of the feed of payments.' })
export class PaymentsFeedPageDto extends FeedPageDto(PaymentDto) {}
