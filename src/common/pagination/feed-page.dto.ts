import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import type { FeedPage } from './feed-paginator';

/**
 * The page envelope of a feed, for one record class: `{ data, nextCursor, caughtUp }`. Each
 * resource names its page (`class SalesFeedPageDto extends FeedPageDto(SaleDto) {}`).
 */
export function FeedPageDto<T>(record: Type<T>): Type<FeedPage<T>> {
  class RecordFeedPage implements FeedPage<T> {
    @ApiProperty({
      type: () => [record],
      maxItems: MAX_PAGE_LIMIT,
      description: `The records of the page in arrival order (at most Limit, at most ${MAX_PAGE_LIMIT}).`,
    })
    data!: T[];

    @ApiProperty({
      type: String,
      maxLength: MAX_PARAMETER_LENGTH,
      description:
        'Opaque cursor of where the feed resumes: store it, and pass it as Cursor, unchanged, on ' +
        'the next call. Never null: a caught-up feed resumes from it when new records arrive.',
    })
    nextCursor!: string;

    @ApiProperty({
      type: Boolean,
      description:
        'true: nothing more can be read now (the end of what is committed, or a record still ' +
        'being written); poll again later with nextCursor. false: read the next page now.',
    })
    caughtUp!: boolean;
  }
  return RecordFeedPage;
}
