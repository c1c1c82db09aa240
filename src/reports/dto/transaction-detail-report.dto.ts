import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { LOCAL_DATE_TIME_OUT } from '../../common/openapi/value-formats';
import { ReportTotalsDto } from './report-totals.dto';
import { TransactionDetailRowDto } from './transaction-detail-row.dto';

/**
 * The JSON representation of the report. It is written piece by piece while rows stream
 * (report-writers.ts), never built as one object: this class is its type and its schema.
 */
@ApiSchema({
  name: 'TransactionDetailReport',
  description: 'One row per sale line of the period, with totals.',
})
export class TransactionDetailReportDto {
  @ApiProperty({
    ...LOCAL_DATE_TIME_OUT,
    description: "Start of the period (inclusive); by business date, BusinessDateFrom's midnight.",
  })
  from!: string;
  @ApiProperty({
    ...LOCAL_DATE_TIME_OUT,
    description: "End of the period (exclusive); by business date, BusinessDateTo's midnight.",
  })
  to!: string;
  @ApiProperty({
    required: false,
    type: String,
    format: 'date',
    description: 'By business date only: BusinessDateFrom, the first business date (inclusive).',
  })
  businessDateFrom?: string;
  @ApiProperty({
    required: false,
    type: String,
    format: 'date',
    description:
      'By business date only: BusinessDateTo, the end of the business dates (exclusive).',
  })
  businessDateTo?: string;
  @ApiProperty({
    type: () => [TransactionDetailRowDto],
    description: 'Rows by sale date-time, sale id, then line number.',
  })
  rows!: TransactionDetailRowDto[];
  @ApiProperty({ type: () => ReportTotalsDto }) totals!: ReportTotalsDto;
}
