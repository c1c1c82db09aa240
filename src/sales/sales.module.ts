import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { PaginationModule } from '../common/pagination/pagination.module';
import { SalesController } from './sales.controller';

@Module({ imports: [BackofficeModule, PaginationModule], controllers: [SalesController] })
export class SalesModule {}
