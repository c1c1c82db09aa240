import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { ShopsController } from './shops.controller';

@Module({ imports: [BackofficeModule], controllers: [ShopsController] })
export class ShopsModule {}
