import type {
  BusinessDataBatch,
  CashMovementRow,
  IdLike,
  PaymentRow,
  SaleLineRow,
  SaleRow,
  SeedIds,
} from './business-data.types';
import { formatCents, formatE4, formatShopDateTime } from './seed-format';
import type { CashDraft, SaleDraft } from './seed-drafts';

const MAX_ID = 2n ** 64n - 1n;

/**
 * A business date's drafts as table rows: sales, lines, payments and cash movements each sorted
 * by time and given ids in that order from `ids`, the amounts and times formatted as stored.
 */
export function toRows(
  date: string,
  sales: SaleDraft[],
  cash: CashDraft[],
  ids: SeedIds<bigint>,
): Pick<BusinessDataBatch, 'sales' | 'lines' | 'payments' | 'cashMovements'> {
  sales.sort((a, b) => a.soldAtMs - b.soldAtMs);
  for (const sale of sales) sale.id = String(nextId(ids, 'sales'));
  const saleRows: SaleRow[] = [];
  const lineRows: SaleLineRow[] = [];
  const paid: { at: number; sale: SaleDraft; index: number }[] = [];
  for (const sale of sales) {
    saleRows.push(saleRow(date, sale));
    sale.lines.forEach((line, i) =>
      lineRows.push({
        sale_id: sale.id,
        line_no: i + 1,
        item_code: line.item.code,
        description: line.item.description,
        quantity: formatE4(line.quantityE4),
        unit_price: formatE4(line.unitPriceE4),
        discount: formatCents(line.discount),
        tax_rate: `${line.item.taxRate}.00`,
        net: formatCents(line.net),
        tax: formatCents(line.tax),
        gross: formatCents(line.gross),
      }),
    );
    sale.payments.forEach((p, index) => paid.push({ at: sale.soldAtMs + p.offsetMs, sale, index }));
  }
  paid.sort((a, b) => a.at - b.at);
  const paymentRows = paid.map(({ at, sale, index }): PaymentRow => {
    const p = sale.payments[index];
    return {
      id: String(nextId(ids, 'payments')),
      sale_id: sale.id,
      shop_code: sale.shop.code,
      register_code: sale.register.code,
      paid_at: formatShopDateTime(date, at, sale.shop.timeZone),
      method: p.method,
      amount: formatCents(p.amount),
      currency: sale.shop.currency,
      card_brand: p.cardBrand,
      reference: p.reference,
    };
  });
  cash.sort((a, b) => a.atMs - b.atMs);
  const cashRows = cash.map((m): CashMovementRow => ({
    id: String(nextId(ids, 'cashMovements')),
    shop_code: m.shop.code,
    register_code: m.register.code,
    moved_at: formatShopDateTime(date, m.atMs, m.shop.timeZone),
    kind: m.kind,
    amount: formatCents(m.amount),
    currency: m.shop.currency,
    reason: m.reason,
    employee_code: m.employee,
    sale_id: m.sale ? m.sale.id : null,
  }));
  return { sales: saleRows, lines: lineRows, payments: paymentRows, cashMovements: cashRows };
}

function saleRow(date: string, sale: SaleDraft): SaleRow {
  return {
    id: sale.id,
    shop_code: sale.shop.code,
    register_code: sale.register.code,
    ticket_number: sale.ticketNumber,
    kind: sale.kind,
    status: sale.status,
    business_date: date,
    sold_at: formatShopDateTime(date, sale.soldAtMs, sale.shop.timeZone),
    currency: sale.shop.currency,
    total_net: formatCents(sale.amounts.net),
    total_tax: formatCents(sale.amounts.tax),
    total_discount: formatCents(sale.amounts.discount),
    total_gross: formatCents(sale.amounts.gross),
    employee_code: sale.employee,
    customer_code: sale.customer,
    original_sale_id: sale.original ? sale.original.id : null,
    created_at: formatShopDateTime(date, sale.createdAtMs, sale.shop.timeZone),
  };
}

function nextId(ids: SeedIds<bigint>, key: keyof SeedIds): bigint {
  const id = ids[key];
  if (id > MAX_ID) throw new RangeError(`${key} id beyond BIGINT UNSIGNED`);
  ids[key] = id + 1n;
  return id;
}

/** A first id of the options as a BIGINT UNSIGNED, or a RangeError naming it. */
export function toId(value: IdLike, name: string): bigint {
  const text = String(value);
  if (!/^[1-9]\d*$/.test(text) || BigInt(text) > MAX_ID) {
    throw new RangeError(`${name} must be a positive integer, got ${text}`);
  }
  return BigInt(text);
}
