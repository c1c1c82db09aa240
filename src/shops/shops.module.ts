import { Module } from '@nestjs/common';
import { WallModule } from '../wall/wall.module';
import { ShopsController } from './shops.controller';

@Module({ imports: [WallModule], controllers: [ShopsController] })
export class ShopsModule {}
