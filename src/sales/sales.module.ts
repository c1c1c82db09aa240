import { Module } from '@nestjs/common';
import { PaginationModule } from '../common/pagination/pagination.module';
import { SalesController } from './sales.controller';

@Module({ imports: [PaginationModule], controllers: [SalesController] })
export class SalesModule {}
