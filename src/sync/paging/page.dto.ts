import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { MAX_PAGE_LIMIT } from '../../config/limits';
import type { ModeDocs } from './page-docs';

/** A page of records: `data`, then the envelope's properties of its mode (`nextCursor`...). */
export interface Page<T> {
  data: T[];
}

/**
 * The page envelope of one record class in one mode: `{ data, nextCursor }` for a list,
 * `{ data, nextCursor, caughtUp }` for a feed. Each resource names its pages
 * (`class SalesPageDto extends PageDto(SaleDto, LIST) {}` with an `@ApiSchema`), so the
 * document has one schema per page with the right record type.
 */
export function PageDto<T, E extends object>(record: Type<T>, mode: ModeDocs): Type<Page<T> & E> {
  class RecordPage {
    @ApiProperty({
      type: () => [record],
      maxItems: MAX_PAGE_LIMIT,
      description: `${mode.data} (at most Limit, at most ${MAX_PAGE_LIMIT}).`,
    })
    data!: T[];
  }
  for (const [name, options] of Object.entries(mode.properties)) {
    ApiProperty(options)(RecordPage.prototype, name);
  }
  return RecordPage as Type<Page<T> & E>;
}
