import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CurrencyTotalsDto } from './currency-totals.dto';

const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;

/**
 * The totals of a report. Lines of VOIDED sales are listed as rows but counted only in
 * voidedSales/voidedLines: they never took place, so they are not in the amounts. Amounts are
 * summed per currency (shops of different currencies cannot be added up).
 */
@ApiSchema({
  name: 'ReportTotals',
  description: 'Totals of the report. Lines of VOIDED sales count only in voidedSales/voidedLines.',
})
export class ReportTotalsDto {
  @ApiProperty(count('Sales counted (VOIDED excepted).')) sales!: number;
  @ApiProperty(count('Lines of those sales.')) lines!: number;
  @ApiProperty(count('VOIDED sales listed.')) voidedSales!: number;
  @ApiProperty(count('Lines of VOIDED sales listed.')) voidedLines!: number;
  @ApiProperty({
    type: () => [CurrencyTotalsDto],
    description: 'One entry per currency, by currency code; empty when nothing was counted.',
  })
  byCurrency!: CurrencyTotalsDto[];
}
