/** A sale as the API returns it. Money is a decimal string with the column's scale. */
export interface SaleLineRecord {
  lineNo: number;
  itemCode: string;
  description: string;
  quantity: string;
  unitPrice: string;
  discount: string;
  taxRate: string;
  net: string;
  tax: string;
  gross: string;
}

export interface SaleRecord {
  id: string;
  shopCode: string;
  registerCode: string;
  ticketNumber: string;
  /** SALE | RETURN */
  kind: string;
  /** COMPLETED | VOIDED */
  status: string;
  businessDate: string;
  /** Shop-local date-time, without zone. */
  soldAt: string;
  currency: string;
  totalNet: string;
  totalTax: string;
  totalDiscount: string;
  totalGross: string;
  employeeCode: string | null;
  customerCode: string | null;
  /** The sale a RETURN refers to. */
  originalSaleId: string | null;
  lines: SaleLineRecord[];
}
