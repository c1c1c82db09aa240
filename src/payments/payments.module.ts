import { Module } from '@nestjs/common';
import { PaginationModule } from '../common/pagination/pagination.module';
import { PaymentsController } from './payments.controller';

@Module({ imports: [PaginationModule], controllers: [PaymentsController] })
export class PaymentsModule {}
