import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { CashMovementsController } from './cash-movements.controller';

@Module({ imports: [BackofficeModule], controllers: [CashMovementsController] })
export class CashMovementsModule {}
