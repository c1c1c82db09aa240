import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { CashMovementRecord } from '../../cash-movements/cash-movements.resource';
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

export const CASH_MOVEMENT_KINDS = [
  'OPENING_FLOAT',
  'SALE',
  'REFUND',
  'CASH_IN',
  'CASH_OUT',
  'CLOSING_COUNT',
] as const;

@ApiSchema({
  name: 'CashMovement',
  description: "A movement of a register's cash drawer: positive into the drawer, negative out.",
})
export class CashMovementSchema implements CashMovementRecord {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty(SHOP_CODE)
  shopCode!: string;

  @ApiProperty(REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({ ...LOCAL_DATE_TIME_OUT, description: 'When the cash moved, shop-local time.' })
  movedAt!: string;

  @ApiProperty(extensibleEnum(CASH_MOVEMENT_KINDS, 'Kind of movement.'))
  kind!: string;

  @ApiProperty(decimalOf(2, 'Amount: positive into the drawer, negative out of it.'))
  amount!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty(nullableText('Reason typed at the register (cash in/out).'))
  reason!: string | null;

  @ApiProperty(nullableText('Code of the employee who moved the cash.'))
  employeeCode!: string | null;

  @ApiProperty({
    ...ID,
    nullable: true,
    description: 'The sale that moved the cash (SALE, REFUND); otherwise null.',
  })
  saleId!: string | null;
}
