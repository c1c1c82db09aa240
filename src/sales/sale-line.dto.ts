import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../common/openapi/value-formats';

/** One line of a sale as the API returns it. Money is a decimal string with the column's scale. */
@ApiSchema({ name: 'SaleLine', description: 'One line of a sale, in line number order.' })
export class SaleLineDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Line number within the sale.' })
  lineNo!: number;

  @ApiProperty({ type: String, description: 'Item code (EAN or internal code).' })
  itemCode!: string;

  @ApiProperty({ type: String, description: 'Item description as printed on the receipt.' })
  description!: string;

  @ApiProperty(format.decimalColumnOf(15, 4, 'Quantity; negative on returns.'))
  quantity!: string;

  @ApiProperty(format.decimalColumnOf(15, 4, 'Unit price.'))
  unitPrice!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Discount of the line.'))
  discount!: string;

  @ApiProperty(format.decimalColumnOf(5, 2, 'Tax rate in percent (21.00 is 21 %).'))
  taxRate!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Net amount of the line.'))
  net!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Tax amount of the line.'))
  tax!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Gross amount of the line (net + tax).'))
  gross!: string;
}
