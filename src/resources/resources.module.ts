import { type DynamicModule, Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import type { AnyResource } from './resource';
import { resourceController } from './resource-controller';

/** The routes of every resource of the catalogue, in its order (the document's tag order). */
@Module({})
export class ResourcesModule {
  static forRoot(catalogue: readonly AnyResource[]): DynamicModule {
    return {
      module: ResourcesModule,
      imports: [BackofficeModule],
      controllers: catalogue.map(resourceController),
    };
  }
}
