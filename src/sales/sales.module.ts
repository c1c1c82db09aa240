import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { SalesController } from './sales.controller';

@Module({ imports: [BackofficeModule], controllers: [SalesController] })
export class SalesModule {}
