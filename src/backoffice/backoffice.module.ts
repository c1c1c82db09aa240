import { Module } from '@nestjs/common';
import { BackofficeUsersRepository } from './backoffice-users.repository';
import { ShopsRepository } from './shops.repository';

/** Read models over the back-office application's tables (users, roles, grants, shops). */
@Module({
  providers: [BackofficeUsersRepository, ShopsRepository],
  exports: [BackofficeUsersRepository, ShopsRepository],
})
export class BackofficeModule {}
