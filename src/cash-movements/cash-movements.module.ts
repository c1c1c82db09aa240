import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { PaginationModule } from '../common/pagination/pagination.module';
import { CashMovementsController } from './cash-movements.controller';

@Module({ imports: [BackofficeModule, PaginationModule], controllers: [CashMovementsController] })
export class CashMovementsModule {}
