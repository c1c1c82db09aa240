import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { PaginationModule } from '../common/pagination/pagination.module';
import { PaymentsController } from './payments.controller';

@Module({ imports: [BackofficeModule, PaginationModule], controllers: [PaymentsController] })
export class PaymentsModule {}
