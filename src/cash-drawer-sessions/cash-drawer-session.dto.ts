import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../common/openapi/value-formats';

const SESSION_STATUSES = ['OPEN', 'CLOSED'] as const;

const money = (description: string) => format.decimalOf(2, description);
const nullableMoney = (description: string) => ({ ...money(description), nullable: true });

/**
 * A register's drawer session as the API returns it: its opening float, the cash that moved
 * through it and, once counted, the count and the difference (docs/database.md, "Drawer sessions
 * and business days"). Amounts are signed as the movements are: + into the drawer, − out.
 */
@ApiSchema({
  name: 'CashDrawerSession',
  description:
    "A register's drawer session, from its opening float to its closing count: what was " +
    'expected in the drawer, what was counted and the difference. Amounts are signed as the ' +
    'cash movements: positive into the drawer, negative out of it.',
})
export class CashDrawerSessionDto {
  @ApiProperty(format.idOf('The id of the OPENING_FLOAT cash movement that opened the session.'))
  id!: string;

  @ApiProperty(format.SHOP_CODE)
  shopCode!: string;

  @ApiProperty(format.REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({
    type: String,
    format: 'date',
    description:
      "Trading day of the session (YYYY-MM-DD): the shop-local date of its opening float's time.",
  })
  businessDate!: string;

  @ApiProperty({
    ...format.LOCAL_DATE_TIME_OUT,
    description: 'When the opening float went into the drawer, shop-local time.',
  })
  openedAt!: string;

  @ApiProperty(format.utcInstantOf('openedAt', '2026-03-01T07:41:12.305Z'))
  openedAtUtc!: string | null;

  @ApiProperty({
    ...format.LOCAL_DATE_TIME_OUT,
    nullable: true,
    description:
      'When the drawer was counted (the CLOSING_COUNT), shop-local time; null while open.',
  })
  closedAt!: string | null;

  @ApiProperty({
    ...format.utcInstantOf('closedAt', '2026-03-01T20:12:40.118Z'),
    description:
      "The instant of `closedAt` in UTC (RFC 3339, milliseconds), from the shop's IANA zone, as " +
      '`openedAtUtc`; null while the session is open.',
  })
  closedAtUtc!: string | null;

  @ApiProperty(
    format.extensibleEnum(
      SESSION_STATUSES,
      'OPEN until a CLOSING_COUNT ends the session; a session followed by another opening float ' +
        'without a count stays OPEN.',
    ),
  )
  status!: string;

  @ApiProperty(format.CURRENCY)
  currency!: string;

  @ApiProperty(money('The opening float.'))
  openingFloat!: string;

  @ApiProperty(money('Sum of the cash sales (SALE movements) of the session.'))
  cashSales!: string;

  @ApiProperty(money('Sum of the cash refunds (REFUND movements, negative) of the session.'))
  cashRefunds!: string;

  @ApiProperty(money('Sum of the cash put in (CASH_IN movements) during the session.'))
  cashIn!: string;

  @ApiProperty(
    money('Sum of the cash taken out (CASH_OUT movements, negative) during the session.'),
  )
  cashOut!: string;

  @ApiProperty(
    money(
      'Cash expected in the drawer at the count: the opening float plus every movement of the ' +
        'session before the count (of any kind).',
    ),
  )
  expected!: string;

  @ApiProperty(nullableMoney('Cash counted out of the drawer at the close; null while open.'))
  counted!: string | null;

  @ApiProperty(nullableMoney('counted − expected: negative when cash is short; null while open.'))
  discrepancy!: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Cash movements of the session, its opening float and its count included.',
  })
  movementCount!: number;
}

/** A closed session with a shortage: the example of the document. */
export const CASH_DRAWER_SESSION_EXAMPLE: CashDrawerSessionDto = {
  id: '524288',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  businessDate: '2026-03-01',
  openedAt: '2026-03-01T08:41:12.305',
  openedAtUtc: '2026-03-01T07:41:12.305Z',
  closedAt: '2026-03-01T21:12:40.118',
  closedAtUtc: '2026-03-01T20:12:40.118Z',
  status: 'CLOSED',
  currency: 'EUR',
  openingFloat: '150.00',
  cashSales: '412.35',
  cashRefunds: '-12.40',
  cashIn: '20.00',
  cashOut: '-300.00',
  expected: '269.95',
  counted: '268.45',
  discrepancy: '-1.50',
  movementCount: 31,
};
