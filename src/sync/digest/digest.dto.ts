import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_DIGEST_DAYS } from '../../config/limits';
import type { DayDigest, VersionedDigest } from './day-checksums';
import {
  DIGEST_VERSIONS,
  type DigestVersion,
  NEWEST_DIGEST_VERSION,
} from '../../catalogue/digest-versions';

@ApiSchema({
  name: 'DayDigest',
  description: "One date of a digest: its records' count and checksum.",
})
export class DayDigestDto implements DayDigest {
  @ApiProperty({ type: String, format: 'date', example: '2026-03-01' })
  date!: string;

  @ApiProperty({ type: Number, minimum: 0, description: 'Records of that date.', example: 731 })
  count!: number;

  @ApiProperty({
    type: String,
    pattern: '^[0-9a-f]{64}$',
    description:
      'Lowercase hex SHA-256 over the records of that date in ascending numeric `id` order, each ' +
      'as its RFC 8785 (JCS) canonical JSON followed by one `\\n`; the record is exactly the ' +
      'object the list endpoint returns. A date without records: SHA-256 of the empty string.',
    example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  })
  checksum!: string;
}

@ApiSchema({
  name: 'Digest',
  description: 'The digest version its checksums follow, then one entry per date of the period.',
})
export class DigestDto implements VersionedDigest {
  @ApiProperty({
    type: Number,
    enum: [...DIGEST_VERSIONS],
    description:
      'The digest version: which fields of each record the checksums cover (docs/sync.md, ' +
      '"Digest versions"); the Version asked for, else the newest.',
    example: NEWEST_DIGEST_VERSION,
  })
  version!: DigestVersion;

  @ApiProperty({
    type: () => [DayDigestDto],
    maxItems: MAX_DIGEST_DAYS,
    description:
      'Every date from From (inclusive) to To (exclusive), empty ones included; empty when the ' +
      'shop is outside the token claims.',
  })
  data!: DayDigestDto[];
}
