import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../../common/openapi/value-formats';

/** Sums of one currency's lines, as decimal strings with two decimals. */
@ApiSchema({ name: 'CurrencyTotals', description: "Sums of one currency's counted lines." })
export class CurrencyTotalsDto {
  @ApiProperty(format.CURRENCY) currency!: string;
  @ApiProperty(format.decimalOf(2, 'Sum of net.')) net!: string;
  @ApiProperty(format.decimalOf(2, 'Sum of tax.')) tax!: string;
  @ApiProperty(format.decimalOf(2, 'Sum of discounts.')) discount!: string;
  @ApiProperty(format.decimalOf(2, 'Sum of gross.')) gross!: string;
}
