import { type DynamicModule, Module } from '@nestjs/common';
import type { AnyResource } from '../catalogue/resource';
import { resourceController } from './resource-controller';
import { SyncModule } from './sync.module';

/** The routes of every resource of the catalogue, in its order (the document's tag order). */
@Module({})
export class ResourcesModule {
  static forRoot(catalogue: readonly AnyResource[]): DynamicModule {
    return {
      module: ResourcesModule,
      imports: [SyncModule],
      controllers: catalogue.map(resourceController),
    };
  }
}
