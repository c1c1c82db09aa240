import { Module } from '@nestjs/common';
import { FeedWaiters } from './arrivals/feed-waiters';
import { PaginationModule } from '../common/pagination/pagination.module';
import { BackofficeUsersRepository } from './backoffice-users.repository';
import { Paginator } from './paginator';
import { ShopScopedReaders } from './shop-scoped-reader';

/**
 * Read models over the back-office application's tables: the users, roles and grants sign-in
 * needs; ShopScopedReaders, the only road to the business data (the resources' sources, the
 * shops); the Paginator every paginated endpoint answers through; FeedWaiters, the feed
 * requests held by Wait.
 */
@Module({
  imports: [PaginationModule],
  providers: [BackofficeUsersRepository, ShopScopedReaders, Paginator, FeedWaiters],
  exports: [BackofficeUsersRepository, ShopScopedReaders, Paginator, FeedWaiters],
})
export class BackofficeModule {}
