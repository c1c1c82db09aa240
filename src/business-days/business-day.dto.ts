import { ApiProperty, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { MAX_DIGEST_DAYS } from '../config/limits';
import * as format from '../common/openapi/value-formats';
import {
  DIGEST_VERSIONS,
  type DigestVersion,
  NEWEST_DIGEST_VERSION,
} from '../catalogue/digest-versions';

const money = (description: string) => format.decimalOf(2, description);
const count = (description: string): ApiPropertyOptions => ({
  type: 'integer',
  minimum: 0,
  description,
});

@ApiSchema({ name: 'BusinessDayTaxRate', description: 'The lines of one tax rate, summed.' })
export class BusinessDayTaxRateDto {
  @ApiProperty(format.decimalOf(2, 'Tax rate in percent, as the lines carry it.'))
  taxRate!: string;

  @ApiProperty(money('Sum of the `net` of the lines at this rate.'))
  net!: string;

  @ApiProperty(money('Sum of the `tax` of the lines at this rate.'))
  tax!: string;

  @ApiProperty(money('Sum of the `gross` of the lines at this rate.'))
  gross!: string;
}

@ApiSchema({
  name: 'BusinessDaySales',
  description:
    'The sales of the business day (`businessDate`): counts of every ticket, sums of those not voided.',
})
export class BusinessDaySalesDto {
  @ApiProperty(count('Sales (`kind` SALE) with `status` COMPLETED.'))
  completed!: number;

  @ApiProperty(count('Returns (`kind` RETURN) with `status` COMPLETED.'))
  returns!: number;

  @ApiProperty(count('Tickets with `status` VOIDED, of any kind.'))
  voided!: number;

  @ApiProperty(money('Sum of `totalGross` of the tickets not voided (returns are negative).'))
  gross!: string;

  @ApiProperty(money('Sum of `totalNet` of the tickets not voided.'))
  net!: string;

  @ApiProperty(money('Sum of `totalTax` of the tickets not voided.'))
  tax!: string;

  @ApiProperty(money('Sum of `totalDiscount` of the tickets not voided.'))
  discount!: string;

  @ApiProperty({
    type: () => [BusinessDayTaxRateDto],
    description: 'The lines of the tickets not voided, by `taxRate`, in ascending rate order.',
  })
  taxRates!: BusinessDayTaxRateDto[];
}

@ApiSchema({ name: 'BusinessDayPaymentMethod', description: 'The payments of one method.' })
export class BusinessDayPaymentMethodDto {
  @ApiProperty({ type: String, description: 'The payment method, as payments carry it.' })
  method!: string;

  @ApiProperty(count('Payments of this method.'))
  count!: number;

  @ApiProperty(money('Sum of their `amount` (refunds are negative).'))
  amount!: string;
}

@ApiSchema({
  name: 'BusinessDayPayments',
  description:
    "Every payment whose `businessDate` (its sale's) is the day, voided sales' included.",
})
export class BusinessDayPaymentsDto {
  @ApiProperty(count('Payments of the day.'))
  count!: number;

  @ApiProperty(money('Sum of their `amount`.'))
  amount!: string;

  @ApiProperty({
    type: () => [BusinessDayPaymentMethodDto],
    description: 'By `method`, in method order.',
  })
  methods!: BusinessDayPaymentMethodDto[];
}

@ApiSchema({
  name: 'BusinessDayCash',
  description:
    'The drawer sessions opened on the day (GET /cash-drawer-sessions with that `businessDate`), summed.',
})
export class BusinessDayCashDto {
  @ApiProperty(count('Drawer sessions of the day.'))
  sessions!: number;

  @ApiProperty(count('Of them, still `OPEN` (not counted yet).'))
  open!: number;

  @ApiProperty(money('Sum of their `openingFloat`.'))
  openingFloat!: string;

  @ApiProperty(money("Sum of their `expected`, the open sessions' (so far) included."))
  expected!: string;

  @ApiProperty(money('Sum of `counted` of the CLOSED sessions.'))
  counted!: string;

  @ApiProperty(money('Sum of `discrepancy` of the CLOSED sessions (negative: short).'))
  discrepancy!: string;
}

@ApiSchema({ name: 'BusinessDayDigest', description: "One resource's records of the day." })
export class BusinessDayDigestDto {
  @ApiProperty(count('Records of the resource whose `businessDate` is the day.'))
  count!: number;

  @ApiProperty({
    type: String,
    pattern: '^[0-9a-f]{64}$',
    description:
      'The checksum of those records by the digests\' rule (docs/sync.md, "The checksum"), in ' +
      'the digest version the answer names.',
  })
  checksum!: string;
}

@ApiSchema({ name: 'BusinessDayDigests', description: 'The digests of the day, by business date.' })
export class BusinessDayDigestsDto {
  @ApiProperty({ type: () => BusinessDayDigestDto })
  sales!: BusinessDayDigestDto;

  @ApiProperty({ type: () => BusinessDayDigestDto })
  payments!: BusinessDayDigestDto;

  @ApiProperty({ type: () => BusinessDayDigestDto })
  cashMovements!: BusinessDayDigestDto;
}

@ApiSchema({
  name: 'BusinessDay',
  description:
    "One business day's close: every figure is a sum over the list endpoints' records whose " +
    '`businessDate` is that day (docs/database.md, "The day close").',
})
export class BusinessDayDto {
  @ApiProperty(format.businessDateOf('The business date (trading day), YYYY-MM-DD.'))
  businessDate!: string;

  @ApiProperty({ type: () => BusinessDaySalesDto })
  sales!: BusinessDaySalesDto;

  @ApiProperty({ type: () => BusinessDayPaymentsDto })
  payments!: BusinessDayPaymentsDto;

  @ApiProperty({ type: () => BusinessDayCashDto })
  cash!: BusinessDayCashDto;

  @ApiProperty({ type: () => BusinessDayDigestsDto })
  digests!: BusinessDayDigestsDto;
}

@ApiSchema({
  name: 'BusinessDays',
  description: 'The digest version of `digests`, then one entry per business date of the period.',
})
export class BusinessDaysDto {
  @ApiProperty({
    type: Number,
    enum: [...DIGEST_VERSIONS],
    description:
      'The digest version the `digests` follow (docs/sync.md, "Digest versions"): the Version ' +
      'asked for, else the newest.',
    example: NEWEST_DIGEST_VERSION,
  })
  version!: DigestVersion;

  @ApiProperty({
    type: () => [BusinessDayDto],
    maxItems: MAX_DIGEST_DAYS,
    description:
      'Every business date from From (inclusive) to To (exclusive), empty days included; empty ' +
      'when the shop is outside the token claims.',
  })
  data!: BusinessDayDto[];
}
