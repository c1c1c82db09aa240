import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../common/openapi/value-formats';

const PAYMENT_METHODS = ['CASH', 'CARD', 'VOUCHER', 'GIFT_CARD', 'TRANSFER', 'OTHER'];

/** A payment of a sale as the API returns it: the mapping's type and the OpenAPI schema. */
@ApiSchema({ name: 'Payment', description: 'A payment of a sale; refunds are negative.' })
export class PaymentDto {
  @ApiProperty(format.ID)
  id!: string;

  @ApiProperty(format.idOf('Id of the sale the payment belongs to.'))
  saleId!: string;

  @ApiProperty(format.SHOP_CODE)
  shopCode!: string;

  @ApiProperty(format.REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({ ...format.LOCAL_DATE_TIME_OUT, description: 'When it was paid, shop-local time.' })
  paidAt!: string;

  @ApiProperty(format.utcInstantOf('paidAt', '2026-03-01T09:15:41.000Z'))
  paidAtUtc!: string | null;

  @ApiProperty(
    format.businessDateOf("Trading day of the payment's sale (YYYY-MM-DD), its `businessDate`."),
  )
  businessDate!: string;

  @ApiProperty(format.extensibleEnum(PAYMENT_METHODS, 'Means of payment.'))
  method!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Amount paid; negative for refunds.'))
  amount!: string;

  @ApiProperty(format.CURRENCY)
  currency!: string;

  @ApiProperty(format.nullableText('Card brand for card payments.', 'VISA'))
  cardBrand!: string | null;

  @ApiProperty(
    format.nullableText('Reference of the payment (authorisation code, voucher number).'),
  )
  reference!: string | null;
}

/** A payment as the service writes it: the example of the document. */
export const PAYMENT_EXAMPLE: PaymentDto = {
  id: '2097152',
  saleId: '1048576',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  paidAt: '2026-03-01T10:15:41.000',
  paidAtUtc: '2026-03-01T09:15:41.000Z',
  businessDate: '2026-03-01',
  method: 'CARD',
  amount: '12.50',
  currency: 'EUR',
  cardBrand: 'VISA',
  reference: 'AUTH-483920',
};
