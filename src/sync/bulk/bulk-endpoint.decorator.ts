import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOperation,
  ApiProperty,
  ApiResponse,
  ApiSchema,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  ApiProblemResponses,
  type ProblemCase,
  type ProblemStatus,
} from '../../common/openapi/problem-responses';
import { ApiQueryParameters } from '../../common/query/query-declaration';
import { QUERY_PROBLEM } from '../../common/query/query-parameters';
import { BULK_CHECKPOINT_RECORDS, MAX_BULK_DAYS, MAX_PARAMETER_LENGTH } from '../../config/limits';
import { DIGEST_BUDGET_PROBLEMS } from '../digest/digest-endpoint.decorator';
import { BULK_QUERY } from './bulk-query';
import type { BulkCheckpointLine, BulkEndLine, BulkErrorLine, BulkStartLine } from './bulk-read';
import { NDJSON } from './bulk-read';

@ApiSchema({
  name: 'BulkStartLine',
  description: "A bulk read's first line: what it holds, and where the feed stood before it.",
})
class BulkStartLineDto implements BulkStartLine {
  @ApiProperty({ enum: ['start'] })
  type!: 'start';

  @ApiProperty({ type: String, example: 'sales' })
  resource!: string;

  @ApiProperty({ type: String, example: 'SHOP001' })
  shopCode!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-01-01T00:00:00.000',
    description: 'The period asked (From); null when business dates were asked instead.',
  })
  from!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2027-01-01T00:00:00.000' })
  to!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'The business dates asked (BusinessDateFrom); null when a period was asked.',
  })
  businessDateFrom!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  businessDateTo!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: MAX_PARAMETER_LENGTH,
    description:
      "The resource's feed cursor at where the feed stood before the stream's first read: " +
      'follow the feed from it (`GET /<resource>/feed?Cursor=…`) and every record committed ' +
      'since arrives there, late uploads included. null for a resource without a feed, and on ' +
      'a resumed read (keep the first one).',
  })
  feedCursor!: string | null;
}

@ApiSchema({
  name: 'BulkCheckpointLine',
  description: `After every ${BULK_CHECKPOINT_RECORDS} records: where a cut stream resumes.`,
})
class BulkCheckpointLineDto implements BulkCheckpointLine {
  @ApiProperty({ enum: ['checkpoint'] })
  type!: 'checkpoint';

  @ApiProperty({ type: Number, minimum: 1, description: 'Records sent so far by this response.' })
  count!: number;

  @ApiProperty({
    type: String,
    maxLength: MAX_PARAMETER_LENGTH,
    description:
      'Pass it as Cursor to resume after the records before this line, if the stream is cut.',
  })
  cursor!: string;
}

@ApiSchema({
  name: 'BulkEndLine',
  description: "A whole stream's last line: without it (or an error line), the stream was cut.",
})
class BulkEndLineDto implements BulkEndLine {
  @ApiProperty({ enum: ['end'] })
  type!: 'end';

  @ApiProperty({ type: Number, minimum: 0, description: 'The record lines this response sent.' })
  count!: number;

  @ApiProperty({
    type: String,
    pattern: '^sha256:[0-9a-f]{64}$',
    description:
      'SHA-256 of the bytes of the record lines this response sent, in order, each with its ' +
      'newline (checkpoint lines not included).',
  })
  checksum!: string;
}

@ApiSchema({
  name: 'BulkErrorLine',
  description: 'The last line of a stream cut by an error after its first line.',
})
class BulkErrorLineDto implements BulkErrorLine {
  @ApiProperty({ enum: ['error'] })
  type!: 'error';

  @ApiProperty({ type: Number, example: 503 })
  status!: number;

  @ApiProperty({ type: String, example: 'Service Unavailable' })
  title!: string;

  @ApiProperty({ type: String, example: 'The database is unavailable right now; retry shortly.' })
  detail!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: MAX_PARAMETER_LENGTH,
    description: "The last checkpoint's cursor, to resume with; null: start again.",
  })
  cursor!: string | null;
}

/** The record line of a resource's bulk read, named for it (`SalesBulkRecordLine`). */
function recordLine(name: string, record: Type<unknown>): Type<unknown> {
  class RecordLine {
    @ApiProperty({ enum: ['record'] })
    type!: 'record';

    @ApiProperty({ type: () => record })
    record!: unknown;
  }
  ApiSchema({
    name: `${name}BulkRecordLine`,
    description: 'One record, exactly as the list returns it.',
  })(RecordLine);
  return RecordLine;
}

const BULK_PROBLEM: ProblemCase = {
  ...QUERY_PROBLEM,
  description:
    'A query parameter is unknown, repeated, missing (ShopCode, From and To without Cursor) or ' +
    `malformed, To before From, more than ${MAX_BULK_DAYS} days after it, or a cursor of ` +
    'another read: `errors[]` names each one.',
  detail: `To: must be at most ${MAX_BULK_DAYS} days after From.`,
  errors: [{ field: 'To', message: `must be at most ${MAX_BULK_DAYS} days after From` }],
};

export interface BulkEndpointDocs {
  path: string;
  operationId: string;
  tag: string;
  /** PascalCase of the route: names the record line's schema. */
  name: string;
  record: Type<unknown>;
  /** What the records are: 'sales'. */
  records: string;
  list: string;
  /** The route (`sales`), and whether the resource has a feed: the example's start line. */
  route: string;
  feed: boolean;
  problems: Partial<Record<ProblemStatus, ProblemCase>>;
}

/** The documentation of a resource's bulk read (GET /sales/bulk). */
export function ApiBulkEndpoint(docs: BulkEndpointDocs): MethodDecorator {
  const line = recordLine(docs.name, docs.record);
  const lines = [BulkStartLineDto, line, BulkCheckpointLineDto, BulkEndLineDto, BulkErrorLineDto];
  return applyDecorators(
    ApiExtraModels(...lines),
    ApiTags(docs.tag),
    ApiOperation({
      operationId: docs.operationId,
      summary: `Every ${docs.records.replace(/s$/, '')} of one shop and period, in one stream`,
      description:
        `The ${docs.records} of one shop from From to To, or of the business dates ` +
        `BusinessDateFrom to BusinessDateTo (at most ${MAX_BULK_DAYS} days either way), in one ` +
        `response, for a first copy of history: NDJSON (\`${NDJSON}\`), one JSON object a line, ` +
        `in the order of ${docs.list} and each record exactly as it returns it. It streams ` +
        '(compressed when Accept-Encoding asks), at the pace the client reads. The first line ' +
        "(`start`) gives the resource's feed cursor taken before the read: the feed from it " +
        'delivers whatever commits meanwhile. A `checkpoint` line after every ' +
        `${BULK_CHECKPOINT_RECORDS} records carries the cursor that resumes after them. The ` +
        'last line is `end` (the count and SHA-256 of the record lines sent) or `error`; a ' +
        'stream without either was cut: resume from the last checkpoint. A shop outside the ' +
        "token claims gives a stream without records. Under the expensive reads' fair share: a " +
        'turn and a call, as a digest; its rows are not counted in DIGEST_ROWS_PER_MINUTE ' +
        '(docs/sync.md, "The bulk read").',
    }),
    ApiQueryParameters(BULK_QUERY),
    ApiResponse({
      status: 200,
      description: 'The stream: start, records and checkpoints, then end or error.',
      content: {
        [NDJSON]: {
          schema: { oneOf: lines.map((model) => ({ $ref: getSchemaPath(model) })) },
          // One line (each line is one of the schemas): the first.
          example: {
            type: 'start',
            resource: docs.route,
            shopCode: 'SHOP001',
            from: '2026-03-01T00:00:00.000',
            to: '2026-04-01T00:00:00.000',
            businessDateFrom: null,
            businessDateTo: null,
            feedCursor: docs.feed ? 'WzEsInNhbGVzL2ZlZWQiLC4uLl0.c2lnbmF0dXJl' : null,
          },
        },
      },
    }),
    ApiProblemResponses(docs.path, {
      400: BULK_PROBLEM,
      ...docs.problems,
      ...DIGEST_BUDGET_PROBLEMS,
    }),
  );
}
