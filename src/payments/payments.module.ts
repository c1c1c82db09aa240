import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { PaymentsController } from './payments.controller';

@Module({ imports: [BackofficeModule], controllers: [PaymentsController] })
export class PaymentsModule {}
