import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ProblemDetails, ProblemFieldError } from '../../common/errors/problem';

@ApiSchema({ name: 'ProblemFieldError', description: 'What is wrong with one field or parameter.' })
export class ProblemFieldErrorSchema implements ProblemFieldError {
  @ApiProperty({
    type: String,
    description: 'Name of the body field or query parameter.',
    example: 'From',
  })
  field!: string;

  @ApiProperty({ type: String, description: 'What is wrong with it.', example: 'no such date' })
  message!: string;
}

@ApiSchema({
  name: 'ProblemDetails',
  description:
    'RFC 9457 problem details: the body of every error (media type application/problem+json).',
})
export class ProblemDetailsSchema implements ProblemDetails {
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

  @ApiProperty({
    type: String,
    description:
      'Id of the request (echoed X-Request-Id or generated); quote it in support requests.',
  })
  requestId!: string;

  @ApiPropertyOptional({
    type: () => [ProblemFieldErrorSchema],
    description: 'For validation problems: one entry per field or parameter in error.',
  })
  errors?: ProblemFieldErrorSchema[];
}
