import { withAttached } from '../catalogue/source';
import { PAYMENT_METHODS } from '../payments/payments.source';
import { SALES } from '../sales/sales.source';

/** The report's source: the sales with their lines (GET /sales's), and their payment methods. */
export const REPORT_SALES = withAttached(SALES, PAYMENT_METHODS);
