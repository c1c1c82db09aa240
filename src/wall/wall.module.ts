import { Module } from '@nestjs/common';
import { Wall } from './wall';

/** The wall: the only road to the business data (the resources' sources, the shops). */
@Module({ providers: [Wall], exports: [Wall] })
export class WallModule {}
