import { type DynamicModule, Module } from '@nestjs/common';
import { SyncModule } from '../sync/sync.module';
import { BusinessDaysController } from './business-days.controller';
import {
  DAY_CLOSE_RESOURCES,
  type DayCloseResources,
  BusinessDaysService,
} from './business-days.service';

/** GET /business-days over the catalogue's resources, which the root hands in. */
@Module({})
export class BusinessDaysModule {
  static forRoot(resources: DayCloseResources): DynamicModule {
    return {
      module: BusinessDaysModule,
      imports: [SyncModule],
      controllers: [BusinessDaysController],
      providers: [BusinessDaysService, { provide: DAY_CLOSE_RESOURCES, useValue: resources }],
    };
  }
}
