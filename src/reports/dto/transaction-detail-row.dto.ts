import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../../common/openapi/value-formats';

/**
 * One row of TransactionDetailReport: a sale line with its sale's header fields and payment
 * methods. The same fields, in the same order (REPORT_COLUMNS), are the JSON keys and the CSV
 * columns.
 */
@ApiSchema({
  name: 'TransactionDetailRow',
  description:
    "One sale line with its sale's header fields and payment methods. The CSV has the same " +
    'columns, in this order.',
})
export class TransactionDetailRowDto {
  @ApiProperty(format.SHOP_CODE) shopCode!: string;
  @ApiProperty(format.REGISTER_CODE) registerCode!: string;
  @ApiProperty(format.idOf('Id of the sale.')) saleId!: string;
  @ApiProperty({ type: String, description: 'Ticket number as printed on the receipt.' })
  ticketNumber!: string;
  @ApiProperty(format.extensibleEnum(format.SALE_KINDS, 'Kind of ticket.')) kind!: string;
  @ApiProperty(
    format.extensibleEnum(format.SALE_STATUSES, 'Status; VOIDED lines are listed, not totalled.'),
  )
  status!: string;
  @ApiProperty({ type: String, format: 'date', description: 'Trading day (YYYY-MM-DD).' })
  businessDate!: string;
  @ApiProperty({
    ...format.LOCAL_DATE_TIME_OUT,
    description: 'When the sale happened, shop-local time.',
  })
  soldAt!: string;
  @ApiProperty(format.nullableText('Code of the employee who rang the sale.'))
  employeeCode!: string | null;
  @ApiProperty(format.nullableText('Code of the customer, when known.'))
  customerCode!: string | null;
  @ApiProperty(format.CURRENCY) currency!: string;
  @ApiProperty({
    type: String,
    description:
      "Distinct methods of the sale's payments, sorted, joined by '+' (`CARD+CASH`); empty when none.",
    example: 'CARD+CASH',
  })
  paymentMethods!: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Line number within the sale.' })
  lineNo!: number;
  @ApiProperty({ type: String, description: 'Item code.' }) itemCode!: string;
  @ApiProperty({ type: String, description: 'Item description.' }) description!: string;
  @ApiProperty(format.decimalColumnOf(15, 4, 'Quantity; negative on returns.')) quantity!: string;
  @ApiProperty(format.decimalColumnOf(15, 4, 'Unit price.')) unitPrice!: string;
  @ApiProperty(format.decimalColumnOf(15, 2, 'Discount of the line.')) discount!: string;
  @ApiProperty(format.decimalColumnOf(5, 2, 'Tax rate in percent.')) taxRate!: string;
  @ApiProperty(format.decimalColumnOf(15, 2, 'Net amount of the line.')) net!: string;
  @ApiProperty(format.decimalColumnOf(15, 2, 'Tax amount of the line.')) tax!: string;
  @ApiProperty(format.decimalColumnOf(15, 2, 'Gross amount of the line.')) gross!: string;
}
