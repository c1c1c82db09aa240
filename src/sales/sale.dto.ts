import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EXAMPLE_SALE_LINE } from '../common/openapi/example-sale-line';
import * as format from '../common/openapi/value-formats';
import { SaleLineDto } from './sale-line.dto';

/**
 * A sale as the API returns it: the TypeScript type of the mapping and the OpenAPI schema at
 * once. Money is a decimal string with the column's scale; date-times are shop-local, no zone.
 */
@ApiSchema({ name: 'Sale', description: 'A sale (or a return) with its lines.' })
export class SaleDto {
  @ApiProperty(format.ID)
  id!: string;

  @ApiProperty(format.SHOP_CODE)
  shopCode!: string;

  @ApiProperty(format.REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({ type: String, description: 'Ticket number as printed on the receipt.' })
  ticketNumber!: string;

  @ApiProperty(format.extensibleEnum(format.SALE_KINDS, 'Kind of ticket.'))
  kind!: string;

  @ApiProperty(format.extensibleEnum(format.SALE_STATUSES, 'Status of the ticket.'))
  status!: string;

  @ApiProperty({
    type: String,
    format: 'date',
    description: 'Trading day the ticket belongs to (YYYY-MM-DD).',
  })
  businessDate!: string;

  @ApiProperty({
    ...format.LOCAL_DATE_TIME_OUT,
    description: 'When the sale happened, shop-local time.',
  })
  soldAt!: string;

  @ApiProperty(format.utcInstantOf('soldAt', '2026-03-01T09:15:30.250Z'))
  soldAtUtc!: string | null;

  @ApiProperty(format.CURRENCY)
  currency!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Total net amount.'))
  totalNet!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Total tax amount.'))
  totalTax!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Total discount.'))
  totalDiscount!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Total gross amount (what the customer paid).'))
  totalGross!: string;

  @ApiProperty(format.nullableText('Code of the employee who rang the sale.'))
  employeeCode!: string | null;

  @ApiProperty(format.nullableText('Code of the customer, when known.'))
  customerCode!: string | null;

  @ApiProperty(format.idOf('For a RETURN, the id of the sale it refers to; otherwise null.', true))
  originalSaleId!: string | null;

  @ApiProperty({ type: () => [SaleLineDto], description: 'The lines of the sale.' })
  lines!: SaleLineDto[];
}

/** A sale as the service writes it: the example of the document (checked by the e2e specs). */
export const SALE_EXAMPLE: SaleDto = {
  id: '1048576',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  ticketNumber: 'R1-000123',
  kind: 'SALE',
  status: 'COMPLETED',
  businessDate: '2026-03-01',
  soldAt: '2026-03-01T10:15:30.250',
  soldAtUtc: '2026-03-01T09:15:30.250Z',
  currency: 'EUR',
  totalNet: '10.33',
  totalTax: '2.17',
  totalDiscount: '0.00',
  totalGross: '12.50',
  employeeCode: 'E007',
  customerCode: null,
  originalSaleId: null,
  lines: [EXAMPLE_SALE_LINE],
};
