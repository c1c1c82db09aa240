import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { CurrencyTotals, ReportTotals } from '../../reports/report-totals';
import type { TransactionDetailRow } from '../../reports/transaction-detail.row';
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

@ApiSchema({
  name: 'TransactionDetailRow',
  description:
    "One sale line with its sale's header fields and payment methods. The CSV has the same " +
    'columns, in this order.',
})
export class TransactionDetailRowSchema implements TransactionDetailRow {
  @ApiProperty(SHOP_CODE) shopCode!: string;
  @ApiProperty(REGISTER_CODE) registerCode!: string;
  @ApiProperty({ ...ID, description: 'Id of the sale.' }) saleId!: string;
  @ApiProperty({ type: String, description: 'Ticket number as printed on the receipt.' })
  ticketNumber!: string;
  @ApiProperty(extensibleEnum(['SALE', 'RETURN'], 'Kind of ticket.')) kind!: string;
  @ApiProperty(
    extensibleEnum(['COMPLETED', 'VOIDED'], 'Status; VOIDED lines are listed, not totalled.'),
  )
  status!: string;
  @ApiProperty({ type: String, format: 'date', description: 'Trading day (YYYY-MM-DD).' })
  businessDate!: string;
  @ApiProperty({ ...LOCAL_DATE_TIME_OUT, description: 'When the sale happened, shop-local time.' })
  soldAt!: string;
  @ApiProperty(nullableText('Code of the employee who rang the sale.')) employeeCode!:
    string | null;
  @ApiProperty(nullableText('Code of the customer, when known.')) customerCode!: string | null;
  @ApiProperty(CURRENCY) currency!: string;
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
  @ApiProperty(decimalOf(4, 'Quantity; negative on returns.')) quantity!: string;
  @ApiProperty(decimalOf(4, 'Unit price.')) unitPrice!: string;
  @ApiProperty(decimalOf(2, 'Discount of the line.')) discount!: string;
  @ApiProperty(decimalOf(2, 'Tax rate in percent.')) taxRate!: string;
  @ApiProperty(decimalOf(2, 'Net amount of the line.')) net!: string;
  @ApiProperty(decimalOf(2, 'Tax amount of the line.')) tax!: string;
  @ApiProperty(decimalOf(2, 'Gross amount of the line.')) gross!: string;
}

@ApiSchema({ name: 'CurrencyTotals', description: "Sums of one currency's counted lines." })
export class CurrencyTotalsSchema implements CurrencyTotals {
  @ApiProperty(CURRENCY) currency!: string;
  @ApiProperty(decimalOf(2, 'Sum of net.')) net!: string;
  @ApiProperty(decimalOf(2, 'Sum of tax.')) tax!: string;
  @ApiProperty(decimalOf(2, 'Sum of discounts.')) discount!: string;
  @ApiProperty(decimalOf(2, 'Sum of gross.')) gross!: string;
}

@ApiSchema({
  name: 'ReportTotals',
  description: 'Totals of the report. Lines of VOIDED sales count only in voidedSales/voidedLines.',
})
export class ReportTotalsSchema implements ReportTotals {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sales counted (VOIDED excepted).' })
  sales!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Lines of those sales.' })
  lines!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'VOIDED sales listed.' })
  voidedSales!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Lines of VOIDED sales listed.' })
  voidedLines!: number;
  @ApiProperty({
    type: () => [CurrencyTotalsSchema],
    description: 'One entry per currency, by currency code; empty when nothing was counted.',
  })
  byCurrency!: CurrencyTotalsSchema[];
}

@ApiSchema({
  name: 'TransactionDetailReport',
  description: 'One row per sale line of the period, with totals.',
})
export class TransactionDetailReportSchema {
  @ApiProperty({ ...LOCAL_DATE_TIME_OUT, description: 'Start of the period (inclusive).' })
  from!: string;
  @ApiProperty({ ...LOCAL_DATE_TIME_OUT, description: 'End of the period (exclusive).' })
  to!: string;
  @ApiProperty({
    type: () => [TransactionDetailRowSchema],
    description: 'Rows by sale date-time, sale id, then line number.',
  })
  rows!: TransactionDetailRowSchema[];
  @ApiProperty({ type: () => ReportTotalsSchema }) totals!: ReportTotalsSchema;
}
