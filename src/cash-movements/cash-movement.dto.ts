import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../common/openapi/value-formats';

const CASH_MOVEMENT_KINDS = [
  'OPENING_FLOAT',
  'SALE',
  'REFUND',
  'CASH_IN',
  'CASH_OUT',
  'CLOSING_COUNT',
];

/** A movement of a register's cash drawer as the API returns it: + into the drawer, - out. */
@ApiSchema({
  name: 'CashMovement',
  description: "A movement of a register's cash drawer: positive into the drawer, negative out.",
})
export class CashMovementDto {
  @ApiProperty(format.ID)
  id!: string;

  @ApiProperty(format.SHOP_CODE)
  shopCode!: string;

  @ApiProperty(format.REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({
    ...format.LOCAL_DATE_TIME_OUT,
    description: 'When the cash moved, shop-local time.',
  })
  movedAt!: string;

  @ApiProperty(format.utcInstantOf('movedAt', '2026-03-01T07:00:00.000Z'))
  movedAtUtc!: string | null;

  @ApiProperty(
    format.businessDateOf(
      "Trading day (YYYY-MM-DD) of the movement's drawer session: the date of the session's " +
        'opening float, also for the movements after midnight and its closing count; outside a ' +
        'session (before the first opening, or after a count and before the next opening), the ' +
        'date of `movedAt`.',
    ),
  )
  businessDate!: string;

  @ApiProperty(format.extensibleEnum(CASH_MOVEMENT_KINDS, 'Kind of movement.'))
  kind!: string;

  @ApiProperty(
    format.decimalColumnOf(15, 2, 'Amount: positive into the drawer, negative out of it.'),
  )
  amount!: string;

  @ApiProperty(format.CURRENCY)
  currency!: string;

  @ApiProperty(format.nullableText('Reason typed at the register (cash in/out).'))
  reason!: string | null;

  @ApiProperty(format.nullableText('Code of the employee who moved the cash.'))
  employeeCode!: string | null;

  @ApiProperty(format.idOf('The sale that moved the cash (SALE, REFUND); otherwise null.', true))
  saleId!: string | null;
}

/** A cash movement as the service writes it: the example of the document. */
export const CASH_MOVEMENT_EXAMPLE: CashMovementDto = {
  id: '524288',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  movedAt: '2026-03-01T08:00:00.000',
  movedAtUtc: '2026-03-01T07:00:00.000Z',
  businessDate: '2026-03-01',
  kind: 'OPENING_FLOAT',
  amount: '150.00',
  currency: 'EUR',
  reason: null,
  employeeCode: 'E007',
  saleId: null,
};
