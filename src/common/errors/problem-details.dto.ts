import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'ProblemFieldError', description: 'What is wrong with one field or parameter.' })
export class ProblemFieldErrorDto {
  @ApiProperty({
    type: String,
    description: 'Name of the body field or query parameter.',
    example: 'From',
  })
  field!: string;

  @ApiProperty({ type: String, description: 'What is wrong with it.', example: 'no such date' })
  message!: string;
}

/** RFC 9457 problem details, as every error of the service is answered. */
@ApiSchema({
  name: 'ProblemDetails',
  description:
    'RFC 9457 problem details: the body of every error (media type application/problem+json).',
})
export class ProblemDetailsDto {
  @ApiProperty({
    type: String,
    format: 'uri',
    description: 'Problem type (a URN): stable, compare it rather than the title.',
    example: 'urn:pos-read-api:problem:unauthorized',
  })
  type!: string;

  @ApiProperty({ type: String, description: 'Short summary of the problem type.' })
  title!: string;

  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, description: 'HTTP status.' })
  status!: number;

  @ApiProperty({ type: String, description: 'What went wrong with this request.' })
  detail!: string;

  @ApiProperty({ type: String, description: 'Path of the request (without query string).' })
  instance!: string;

  /** Optional in the type only: ProblemDetailsFilter sets it on every body it sends. */
  @ApiProperty({
    type: String,
    description:
      'Id of the request (echoed X-Request-Id or generated); quote it in support requests.',
  })
  requestId?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^[0-9a-f]{32}$',
    description:
      'Id of the trace of this request when the service exports traces (OpenTelemetry); quote it with the request id.',
  })
  traceId?: string;

  @ApiPropertyOptional({
    type: () => [ProblemFieldErrorDto],
    description: 'For validation problems: one entry per field or parameter in error.',
  })
  errors?: ProblemFieldErrorDto[];
}
