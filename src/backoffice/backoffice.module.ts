import { Module } from '@nestjs/common';
import { FeedWaiters } from './arrivals/feed-waiters';
import { BackofficeUsersRepository } from './backoffice-users.repository';
import { FeedIndexes } from './feed-indexes';
import { ShopScopedReaders } from './shop-scoped-reader';

/**
 * Read models over the back-office application's tables: the users, roles and grants sign-in
 * needs, and ShopScopedReaders, the only road to the business data (sales, payments, cash
 * movements, shops), FeedIndexes, the start-up check of the feeds' recommended indexes, and
 * FeedWaiters, the requests held by a feed's Wait.
 */
@Module({
  providers: [BackofficeUsersRepository, ShopScopedReaders, FeedIndexes, FeedWaiters],
  exports: [BackofficeUsersRepository, ShopScopedReaders, FeedIndexes, FeedWaiters],
})
export class BackofficeModule {}
