import {
  type BusinessData,
  collectBusinessData,
  generateBusinessData,
} from './business-data.generator';
import type { BusinessDataOptions, PaymentRow, SaleLineRow, SaleRow } from './business-data.types';
import { parseScaled } from './seed-format';

const OPTIONS: BusinessDataOptions = {
  seed: 7,
  shops: 3,
  days: 21,
  salesPerDay: 60,
  startDate: '2026-03-20',
};

const cents = (text: string): number => parseScaled(text, 2);

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

describe(generateBusinessData.name, () => {
  let data: BusinessData;
  let salesById: Map<string, SaleRow>;
  let paymentsBySale: Map<string, PaymentRow[]>;

  beforeAll(() => {
    data = collectBusinessData(OPTIONS);
    salesById = new Map(data.sales.map((s) => [s.id, s]));
    paymentsBySale = groupBy(data.payments, (p) => p.sale_id);
  });

  it('should yield byte-identical rows for the same seed', () => {
    expect(JSON.stringify(collectBusinessData(OPTIONS))).toBe(JSON.stringify(data));
  });

  it('should yield different rows for a different seed', () => {
    const other = collectBusinessData({ ...OPTIONS, seed: 8 });
    expect(JSON.stringify(other.sales)).not.toBe(JSON.stringify(data.sales));
  });

  it('should yield one batch per business date, the shops and registers in the first', () => {
    const batches = [...generateBusinessData({ ...OPTIONS, days: 3 })];
    expect(batches.map((b) => b.businessDate)).toEqual(['2026-03-20', '2026-03-21', '2026-03-22']);
    expect(batches[0].shops.map((s) => s.code)).toEqual(['SHOP001', 'SHOP002', 'SHOP003']);
    expect(batches[1].shops).toEqual([]);
    expect(batches[1].registers).toEqual([]);
  });

  it('should generate shops with codes, names, zones and 2 to 4 registers', () => {
    for (const shop of data.shops) {
      expect(shop.code).toMatch(/^SHOP\d{3}$/);
      expect(shop.name.length).toBeGreaterThan(5);
      expect(['Europe/Madrid', 'Europe/Lisbon', 'Atlantic/Canary']).toContain(shop.time_zone);
      expect(shop.currency).toBe('EUR');
      const registers = data.registers.filter((r) => r.shop_code === shop.code);
      expect(registers.length).toBeGreaterThanOrEqual(2);
      expect(registers.length).toBeLessThanOrEqual(4);
    }
  });

  it('should average salesPerDay per shop and day', () => {
    const expected = 3 * 21 * 60;
    expect(data.sales.length).toBeGreaterThan(expected * 0.85);
    expect(data.sales.length).toBeLessThan(expected * 1.15);
  });

  it('should number ids consecutively from firstIds, even beyond 2^53', () => {
    expect(data.sales.map((s) => s.id)).toEqual(data.sales.map((_, i) => String(i + 1)));
    const big = collectBusinessData({
      ...OPTIONS,
      days: 2,
      firstIds: { sales: '9007199254740993', payments: 10n, cashMovements: 500 },
    });
    expect(big.sales[0].id).toBe('9007199254740993');
    expect(big.sales[1].id).toBe('9007199254740994');
    expect(big.lines[0].sale_id).toBe('9007199254740993');
    expect(big.payments[0].id).toBe('10');
    expect(big.cashMovements[0].id).toBe('500');
  });

  it('should make every sale total the sum of its lines to the cent', () => {
    const linesBySale = groupBy(data.lines, (l) => l.sale_id);
    const bad = data.sales.filter((sale) => {
      const lines = linesBySale.get(sale.id) ?? [];
      const sum = (pick: (l: SaleLineRow) => string): number =>
        lines.reduce((total, line) => total + cents(pick(line)), 0);
      return (
        lines.length < 1 ||
        lines.length > 6 ||
        lines.some((l, i) => l.line_no !== i + 1) ||
        cents(sale.total_net) !== sum((l) => l.net) ||
        cents(sale.total_tax) !== sum((l) => l.tax) ||
        cents(sale.total_discount) !== sum((l) => l.discount) ||
        cents(sale.total_gross) !== sum((l) => l.gross)
      );
    });
    expect(bad).toEqual([]);
  });

  it('should make gross = net + tax, and gross = quantity × unit price − discount', () => {
    const badLines = data.lines.filter((line) => {
      const amount = parseScaled(line.quantity, 4) * parseScaled(line.unit_price, 4);
      return (
        cents(line.gross) !== cents(line.net) + cents(line.tax) ||
        Math.abs(cents(line.gross) + cents(line.discount) - amount / 1_000_000) > 0.5 ||
        !['21.00', '10.00', '4.00'].includes(line.tax_rate)
      );
    });
    expect(badLines).toEqual([]);
    const badSales = data.sales.filter(
      (s) => cents(s.total_gross) !== cents(s.total_net) + cents(s.total_tax),
    );
    expect(badSales).toEqual([]);
  });

  it('should make the payments of a completed sale add up to its total_gross', () => {
    const bad = data.sales
      .filter((s) => s.status === 'COMPLETED')
      .filter((sale) => {
        const payments = paymentsBySale.get(sale.id) ?? [];
        return (
          payments.length < 1 ||
          payments.length > 2 ||
          payments.reduce((t, p) => t + cents(p.amount), 0) !== cents(sale.total_gross) ||
          payments.some(
            (p) =>
              p.paid_at < sale.sold_at ||
              p.shop_code !== sale.shop_code ||
              p.register_code !== sale.register_code ||
              (p.card_brand !== null) !== (p.method === 'CARD'),
          )
        );
      });
    expect(bad).toEqual([]);
  });

  it('should make returns refer to an earlier completed sale of the same shop, all negative', () => {
    const returns = data.sales.filter((s) => s.kind === 'RETURN');
    expect(returns.length).toBeGreaterThan(0);
    for (const ret of returns) {
      const original = salesById.get(ret.original_sale_id ?? '');
      expect(original).toBeDefined();
      expect(original?.shop_code).toBe(ret.shop_code);
      expect(original?.kind).toBe('SALE');
      expect(original?.status).toBe('COMPLETED');
      expect((original?.sold_at ?? '') < ret.sold_at).toBe(true);
      expect(BigInt(original?.id ?? 0) < BigInt(ret.id)).toBe(true);
      expect(cents(ret.total_gross)).toBeLessThan(0);
      expect(cents(ret.total_net)).toBeLessThan(0);
      for (const p of paymentsBySale.get(ret.id) ?? []) expect(cents(p.amount)).toBeLessThan(0);
    }
    const returnedLines = data.lines.filter((l) => salesById.get(l.sale_id)?.kind === 'RETURN');
    for (const line of returnedLines) expect(line.quantity.startsWith('-')).toBe(true);
    expect(
      data.sales.filter((s) => s.kind === 'SALE').every((s) => s.original_sale_id === null),
    ).toBe(true);
  });

  it('should give voided sales no payments and no cash movements', () => {
    const voided = data.sales.filter((s) => s.status === 'VOIDED');
    expect(voided.length).toBeGreaterThan(0);
    const cashSales = new Set(data.cashMovements.map((m) => m.sale_id));
    for (const sale of voided) {
      expect(paymentsBySale.has(sale.id)).toBe(false);
      expect(cashSales.has(sale.id)).toBe(false);
    }
  });

  it('should write sold_at on its business date, strictly increasing per register', () => {
    const pattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;
    const bad: SaleRow[] = [];
    for (const [, sales] of groupBy(data.sales, (s) => `${s.shop_code}/${s.register_code}`)) {
      sales.forEach((sale, i) => {
        const hour = Number(sale.sold_at.slice(11, 13));
        if (
          !pattern.test(sale.sold_at) ||
          !pattern.test(sale.created_at) ||
          sale.sold_at.slice(0, 10) !== sale.business_date ||
          hour < 9 ||
          hour >= 22 ||
          (i > 0 && sales[i - 1].sold_at >= sale.sold_at)
        ) {
          bad.push(sale);
        }
      });
    }
    expect(bad).toEqual([]);
    expect(data.payments.filter((p) => !pattern.test(p.paid_at))).toEqual([]);
    expect(data.cashMovements.filter((m) => !pattern.test(m.moved_at))).toEqual([]);
  });

  it('should number tickets uniquely per register', () => {
    const tickets = new Set(data.sales.map((s) => `${s.shop_code}/${s.ticket_number}`));
    expect(tickets.size).toBe(data.sales.length);
    const bad = data.sales.filter(
      (s) =>
        !/^R\d-\d{6}$/.test(s.ticket_number) || !s.ticket_number.startsWith(`${s.register_code}-`),
    );
    expect(bad).toEqual([]);
  });

  it('should move cash for every cash payment, at the payment time and with its amount', () => {
    const cashPayments = data.payments.filter((p) => p.method === 'CASH');
    const saleMovements = data.cashMovements.filter(
      (m) => m.kind === 'SALE' || m.kind === 'REFUND',
    );
    expect(saleMovements.length).toBe(cashPayments.length);
    const key = (
      x: { sale_id?: string | null; amount: string; register_code: string },
      at: string,
    ): string => `${x.sale_id}|${x.amount}|${x.register_code}|${at}`;
    const expected = cashPayments.map((p) => key(p, p.paid_at)).sort();
    expect(saleMovements.map((m) => key(m, m.moved_at)).sort()).toEqual(expected);
    for (const m of saleMovements) expect(m.kind === 'SALE').toBe(cents(m.amount) > 0);
  });

  it('should open each register-day with a float and close it with a count that empties the drawer', () => {
    const days = groupBy(
      data.cashMovements,
      (m) => `${m.shop_code}/${m.register_code}/${m.moved_at.slice(0, 10)}`,
    );
    for (const [, moves] of days) {
      expect(moves[0].kind).toBe('OPENING_FLOAT');
      expect(moves[moves.length - 1].kind).toBe('CLOSING_COUNT');
      let balance = 0;
      for (const m of moves.slice(0, -1)) {
        balance += cents(m.amount);
        expect(balance).toBeGreaterThanOrEqual(0);
      }
      const closing = moves[moves.length - 1];
      const difference = balance + cents(closing.amount);
      expect(difference === 0).toBe(closing.reason === null);
      for (const m of moves) {
        if (m.kind === 'CASH_IN' || m.kind === 'CASH_OUT') expect(m.reason).not.toBeNull();
        else if (m.kind !== 'CLOSING_COUNT') expect(m.reason).toBeNull();
      }
    }
  });

  it('should write every amount with the scale of its column', () => {
    const money = /^-?\d+\.\d{2}$/;
    const e4 = /^-?\d+\.\d{4}$/;
    const badSales = data.sales.filter((s) =>
      [s.total_net, s.total_tax, s.total_discount, s.total_gross].some((v) => !money.test(v)),
    );
    const badLines = data.lines.filter(
      (l) =>
        [l.discount, l.net, l.tax, l.gross].some((v) => !money.test(v)) ||
        !e4.test(l.quantity) ||
        !e4.test(l.unit_price),
    );
    expect(badSales).toEqual([]);
    expect(badLines).toEqual([]);
    expect(data.payments.filter((p) => !money.test(p.amount))).toEqual([]);
    expect(data.cashMovements.filter((m) => !money.test(m.amount))).toEqual([]);
    expect(data.lines.some((l) => !l.quantity.endsWith('.0000'))).toBe(true);
  });

  it('should keep realistic proportions of returns, voids, split payments and customers', () => {
    const share = (count: number): number => count / data.sales.length;
    expect(share(data.sales.filter((s) => s.kind === 'RETURN').length)).toBeGreaterThan(0.015);
    expect(share(data.sales.filter((s) => s.kind === 'RETURN').length)).toBeLessThan(0.045);
    expect(share(data.sales.filter((s) => s.status === 'VOIDED').length)).toBeLessThan(0.025);
    const split = [...paymentsBySale.values()].filter((p) => p.length === 2).length;
    expect(share(split)).toBeGreaterThan(0.05);
    expect(share(split)).toBeLessThan(0.15);
    const customers = data.sales.filter((s) => s.customer_code !== null).length;
    expect(share(customers)).toBeGreaterThan(0.25);
    expect(share(customers)).toBeLessThan(0.4);
    expect(data.sales.filter((s) => !/^E\d{3}$/.test(s.employee_code ?? ''))).toEqual([]);
  });

  it('should write no rows for existing shops and continue their ticket numbers', () => {
    const out = collectBusinessData({
      ...OPTIONS,
      days: 1,
      shops: [
        { code: 'OLD1', name: 'Old shop', existing: true, registers: ['R1', 'R2'] },
        { code: 'NEW1' },
      ],
      nextTicketNumbers: { 'OLD1/R1': 501 },
    });
    expect(out.shops.map((s) => s.code)).toEqual(['NEW1']);
    expect(out.registers.every((r) => r.shop_code === 'NEW1')).toBe(true);
    const oldR1 = out.sales.filter((s) => s.shop_code === 'OLD1' && s.register_code === 'R1');
    expect(oldR1[0].ticket_number).toBe('R1-000501');
  });

  it('should refuse invalid options', () => {
    const bad: Partial<BusinessDataOptions>[] = [
      { seed: -1 },
      { days: 0 },
      { salesPerDay: 100_000 },
      { startDate: '2026-02-30' },
      { shops: 0 },
      { shops: [{ code: 'A' }, { code: 'A' }] },
      { shops: [{ code: 'WAY-TOO-LONG-SHOP-CODE' }] },
      { firstIds: { sales: 0 } },
    ];
    for (const patch of bad) {
      expect(() => collectBusinessData({ ...OPTIONS, ...patch })).toThrow(RangeError);
    }
  });
});

describe('a shop whose business day runs past midnight (a bar, 20:00 to 04:00)', () => {
  const bar = (startDate: string, days: number): BusinessData =>
    collectBusinessData({
      seed: 7,
      shops: [{ code: 'BAR1', timeZone: 'Europe/Madrid', hours: { open: 20, close: 28 } }],
      days,
      salesPerDay: 60,
      startDate,
    });
  // The nights of both changes of the clock of 2026 in Madrid.
  const spring = bar('2026-03-27', 4);
  const fall = bar('2026-10-23', 4);
  const nextDay = (date: string) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it('should keep the evening business date on the sales after midnight', () => {
    for (const data of [spring, fall]) {
      const bad = data.sales.filter(
        (s) =>
          !(
            (s.sold_at.slice(0, 10) === s.business_date && s.sold_at.slice(11) >= '20:00') ||
            (s.sold_at.slice(0, 10) === nextDay(s.business_date) && s.sold_at.slice(11) < '05:00')
          ),
      );
      expect(bad).toEqual([]);
      const afterMidnight = data.sales.filter((s) => s.sold_at.slice(0, 10) !== s.business_date);
      expect(afterMidnight.length).toBeGreaterThan(data.sales.length / 4);
    }
  });

  it('should sell on 2026-03-29 around the missing hour and on 2026-10-25 in the repeated one', () => {
    const at = (data: BusinessData, prefix: string) =>
      data.sales.filter((s) => s.sold_at.startsWith(prefix));
    expect(at(spring, '2026-03-29 02:')).toEqual([]);
    expect(at(spring, '2026-03-29 03:').length).toBeGreaterThan(0);
    const repeated = at(fall, '2026-10-25 02:');
    expect(repeated.length).toBeGreaterThan(2);
    // Ids follow the instants: somewhere in the repeated hour the wall clock goes back.
    const steps = repeated.slice(1).filter((s, i) => s.sold_at < repeated[i].sold_at);
    expect(steps.length).toBeGreaterThan(0);
  });

  it('should count each drawer after midnight, after every movement of its session on the wall clock', () => {
    for (const data of [spring, fall]) {
      const byRegister = groupBy(data.cashMovements, (m) => m.register_code);
      for (const [, moves] of byRegister) {
        const ordered = [...moves].sort((a, b) =>
          a.moved_at === b.moved_at
            ? Number(a.id) - Number(b.id)
            : a.moved_at < b.moved_at
              ? -1
              : 1,
        );
        let balance: number | null = null;
        let openedOn = '';
        for (const m of ordered) {
          if (m.kind === 'OPENING_FLOAT') {
            expect(balance).toBeNull();
            balance = cents(m.amount);
            openedOn = m.moved_at.slice(0, 10);
          } else if (m.kind === 'CLOSING_COUNT') {
            expect(m.moved_at.slice(0, 10)).toBe(nextDay(openedOn));
            const difference = (balance as number) + cents(m.amount);
            expect(difference === 0).toBe(m.reason === null);
            balance = null;
          } else {
            expect(balance).not.toBeNull();
            balance = (balance as number) + cents(m.amount);
          }
        }
        expect(balance).toBeNull();
      }
    }
  });
});
