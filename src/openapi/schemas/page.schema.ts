import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { Page } from '../../common/pagination/keyset-resource';
import { MAX_LIMIT } from '../../common/pagination/page-query';
import { MAX_PARAMETER_LENGTH } from '../../common/pagination/query-parameters';
import type { CashMovementRecord } from '../../cash-movements/cash-movements.resource';
import type { PaymentRecord } from '../../payments/payments.resource';
import type { SaleRecord } from '../../sales/sale.record';
import { CashMovementSchema } from './cash-movement.schema';
import { PaymentSchema } from './payment.schema';
import { SaleSchema } from './sale.schema';

const NEXT_CURSOR = {
  type: String,
  nullable: true,
  maxLength: MAX_PARAMETER_LENGTH,
  description:
    'Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page.',
};

const dataOf = (item: () => unknown) => ({
  type: () => [item()],
  maxItems: MAX_LIMIT,
  description: `The records of the page, oldest first (at most Limit, at most ${MAX_LIMIT}).`,
});

@ApiSchema({ name: 'SalesPage', description: 'A page of sales.' })
export class SalesPageSchema implements Page<SaleRecord> {
  @ApiProperty(dataOf(() => SaleSchema))
  data!: SaleSchema[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor!: string | null;
}

@ApiSchema({ name: 'PaymentsPage', description: 'A page of payments.' })
export class PaymentsPageSchema implements Page<PaymentRecord> {
  @ApiProperty(dataOf(() => PaymentSchema))
  data!: PaymentSchema[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor!: string | null;
}

@ApiSchema({ name: 'CashMovementsPage', description: 'A page of cash movements.' })
export class CashMovementsPageSchema implements Page<CashMovementRecord> {
  @ApiProperty(dataOf(() => CashMovementSchema))
  data!: CashMovementSchema[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor!: string | null;
}
