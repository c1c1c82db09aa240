import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { SaleLineRecord, SaleRecord } from '../../sales/sale.record';
import {
  CURRENCY,
  decimalOf,
  extensibleEnum,
  ID,
  LOCAL_DATE_TIME_OUT,
  nullableText,
  REGISTER_CODE,
  SHOP_CODE,
} from './value-formats';

@ApiSchema({ name: 'SaleLine', description: 'One line of a sale, in line number order.' })
export class SaleLineSchema implements SaleLineRecord {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Line number within the sale.' })
  lineNo!: number;

  @ApiProperty({ type: String, description: 'Item code (EAN or internal code).' })
  itemCode!: string;

  @ApiProperty({ type: String, description: 'Item description as printed on the receipt.' })
  description!: string;

  @ApiProperty(decimalOf(4, 'Quantity; negative on returns.'))
  quantity!: string;

  @ApiProperty(decimalOf(4, 'Unit price.'))
  unitPrice!: string;

  @ApiProperty(decimalOf(2, 'Discount of the line.'))
  discount!: string;

  @ApiProperty(decimalOf(2, 'Tax rate in percent (21.00 is 21 %).'))
  taxRate!: string;

  @ApiProperty(decimalOf(2, 'Net amount of the line.'))
  net!: string;

  @ApiProperty(decimalOf(2, 'Tax amount of the line.'))
  tax!: string;

  @ApiProperty(decimalOf(2, 'Gross amount of the line (net + tax).'))
  gross!: string;
}

@ApiSchema({ name: 'Sale', description: 'A sale (or a return) with its lines.' })
export class SaleSchema implements SaleRecord {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty(SHOP_CODE)
  shopCode!: string;

  @ApiProperty(REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({ type: String, description: 'Ticket number as printed on the receipt.' })
  ticketNumber!: string;

  @ApiProperty(extensibleEnum(['SALE', 'RETURN'], 'Kind of ticket.'))
  kind!: string;

  @ApiProperty(extensibleEnum(['COMPLETED', 'VOIDED'], 'Status of the ticket.'))
  status!: string;

  @ApiProperty({
    type: String,
    format: 'date',
    description: 'Trading day the ticket belongs to (YYYY-MM-DD).',
  })
  businessDate!: string;

  @ApiProperty({ ...LOCAL_DATE_TIME_OUT, description: 'When the sale happened, shop-local time.' })
  soldAt!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty(decimalOf(2, 'Total net amount.'))
  totalNet!: string;

  @ApiProperty(decimalOf(2, 'Total tax amount.'))
  totalTax!: string;

  @ApiProperty(decimalOf(2, 'Total discount.'))
  totalDiscount!: string;

  @ApiProperty(decimalOf(2, 'Total gross amount (what the customer paid).'))
  totalGross!: string;

  @ApiProperty(nullableText('Code of the employee who rang the sale.'))
  employeeCode!: string | null;

  @ApiProperty(nullableText('Code of the customer, when known.'))
  customerCode!: string | null;

  @ApiProperty({
    ...ID,
    nullable: true,
    description: 'For a RETURN, the id of the sale it refers to; otherwise null.',
  })
  originalSaleId!: string | null;

  @ApiProperty({ type: () => [SaleLineSchema], description: 'The lines of the sale.' })
  lines!: SaleLineSchema[];
}
