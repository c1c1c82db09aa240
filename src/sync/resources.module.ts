import { type DynamicModule, Module } from '@nestjs/common';
import type { AnyResource } from '../catalogue/resource';
import { ChangeSource } from './changes/change-source';
import { resourceController } from './resource-controller';
import { SyncModule } from './sync.module';

/**
 * The routes of every resource of the catalogue, in its order (the document's tag order), and
 * the change source's watch of the digests' sources (the binary log's tables follow from them).
 */
@Module({})
export class ResourcesModule {
  static forRoot(catalogue: readonly AnyResource[]): DynamicModule {
    return {
      module: ResourcesModule,
      imports: [SyncModule],
      controllers: catalogue.map(resourceController),
      providers: [
        {
          provide: 'CHANGE_SOURCE_WATCH',
          inject: [ChangeSource],
          useFactory: (changes: ChangeSource) =>
            changes.watch(catalogue.flatMap((r) => (r.digest ? [r.source] : []))),
        },
      ],
    };
  }
}
