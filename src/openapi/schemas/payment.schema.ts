import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { PaymentRecord } from '../../payments/payments.resource';
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

@ApiSchema({ name: 'Payment', description: 'A payment of a sale; refunds are negative.' })
export class PaymentSchema implements PaymentRecord {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty({ ...ID, description: 'Id of the sale the payment belongs to.' })
  saleId!: string;

  @ApiProperty(SHOP_CODE)
  shopCode!: string;

  @ApiProperty(REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({ ...LOCAL_DATE_TIME_OUT, description: 'When it was paid, shop-local time.' })
  paidAt!: string;

  @ApiProperty(
    extensibleEnum(
      ['CASH', 'CARD', 'VOUCHER', 'GIFT_CARD', 'TRANSFER', 'OTHER'],
      'Means of payment.',
    ),
  )
  method!: string;

  @ApiProperty(decimalOf(2, 'Amount paid; negative for refunds.'))
  amount!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty(nullableText('Card brand for card payments.', 'VISA'))
  cardBrand!: string | null;

  @ApiProperty(nullableText('Reference of the payment (authorisation code, voucher number).'))
  reference!: string | null;
}
