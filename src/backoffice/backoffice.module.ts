import { Module } from '@nestjs/common';
import { BackofficeUsersRepository } from './backoffice-users.repository';
import { FeedIndexes } from './feed-indexes';
import { ShopScopedReaders } from './shop-scoped-reader';

/**
 * Read models over the back-office application's tables: the users, roles and grants sign-in
 * needs, and ShopScopedReaders, the only road to the business data (sales, payments, cash
 * movements, shops), and FeedIndexes, the start-up check of the feeds' recommended indexes.
 */
@Module({
  providers: [BackofficeUsersRepository, ShopScopedReaders, FeedIndexes],
  exports: [BackofficeUsersRepository, ShopScopedReaders, FeedIndexes],
})
export class BackofficeModule {}
