import { Module } from '@nestjs/common';
import { PaginationModule } from '../common/pagination/pagination.module';
import { CashMovementsController } from './cash-movements.controller';

@Module({ imports: [PaginationModule], controllers: [CashMovementsController] })
export class CashMovementsModule {}
