import { Module } from '@nestjs/common';
import { BackofficeUsersRepository } from './backoffice-users.repository';
import { ShopScopedReaders } from './shop-scoped-reader';

/**
 * Read models over the back-office application's tables: the users, roles and grants sign-in
 * needs, and ShopScopedReaders, the only road to the business data (sales, payments, cash
 * movements, shops).
 */
@Module({
  providers: [BackofficeUsersRepository, ShopScopedReaders],
  exports: [BackofficeUsersRepository, ShopScopedReaders],
})
export class BackofficeModule {}
