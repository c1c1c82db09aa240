import { Module } from '@nestjs/common';
import { PaginationModule } from '../common/pagination/pagination.module';
import { BackofficeUsersRepository } from './backoffice-users.repository';
import { Paginator } from './paginator';
import { ShopScopedReaders } from './shop-scoped-reader';

/**
 * Read models over the back-office application's tables: the users, roles and grants sign-in
 * needs; ShopScopedReaders, the only road to the business data (the resources' sources, the
 * shops); and the Paginator every paginated endpoint answers through.
 */
@Module({
  imports: [PaginationModule],
  providers: [BackofficeUsersRepository, ShopScopedReaders, Paginator],
  exports: [BackofficeUsersRepository, ShopScopedReaders, Paginator],
})
export class BackofficeModule {}
