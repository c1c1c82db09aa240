import type { PrimaryReader } from '../../database/replicas/read-router';
import { ArrivalWatcher } from './arrival-watcher';
import { Waiter } from './waiter';

/** A primary whose tables hold `tops` (shop → highest id); records every statement. */
function fakePrimary(tops: Map<string, bigint>) {
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const reader: PrimaryReader = {
    uncommitted: null,
    query: (sql, params) => {
      statements.push({ sql, params });
      const rows: Array<{ shop_code: string | null; top: string | null }> = [];
      const all = [...tops.values()];
      rows.push({
        shop_code: null,
        top: all.length ? String(all.reduce((a, b) => (a > b ? a : b))) : null,
      });
      for (const [shop, top] of tops) rows.push({ shop_code: shop, top: String(top) });
      return Promise.resolve(rows);
    },
  };
  return { reader, statements };
}

const polls = (n: number) => new Promise((r) => setTimeout(r, n * 10 + 5));

describe(ArrivalWatcher.name, () => {
  it('should send one statement per poll for a thousand waiters, and none once nobody waits', async () => {
    const { reader, statements } = fakePrimary(new Map([['A', 5n]]));
    const watcher = new ArrivalWatcher('orders', (work) => work(reader), 10);
    const started = Date.now();
    const waiters = Array.from(
      { length: 1000 },
      (_, i) => new Waiter('orders', 'orders', `u${i}`, ['A'], '5'),
    );
    for (const w of waiters) {
      watcher.add(w);
      watcher.arm(w, 'first');
      void w.next(10_000);
    }
    await polls(5);
    const sent = statements.length;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 10));
    expect(statements[0].sql).toContain('UNION ALL');
    for (const w of waiters) {
      w.release();
      watcher.remove(w);
    }
    await polls(3);
    expect(statements.length).toBeLessThanOrEqual(sent + 1);
  });

  it('should wake only the waiters of the shop that moved, once its id passes their position', async () => {
    const tops = new Map([
      ['A', 5n],
      ['B', 7n],
    ]);
    const { reader } = fakePrimary(tops);
    const watcher = new ArrivalWatcher('orders', (work) => work(reader), 10);
    const [a, b] = [
      new Waiter('orders', 'orders', 'u1', ['A'], '5'),
      new Waiter('orders', 'orders', 'u2', ['B'], '7'),
    ];
    const woken: string[] = [];
    for (const w of [a, b]) {
      watcher.add(w);
      watcher.arm(w, 'first');
      void w.next(10_000).then((arrived) => arrived && woken.push(w.userId));
    }
    await polls(3);
    expect(woken).toEqual([]);
    tops.set('B', 8n);
    await polls(3);
    expect(woken).toEqual(['u2']);
    expect(watcher.wakes).toBe(1);
    a.release();
    watcher.remove(a);
    watcher.remove(b);
  });

  it('should not wake a waiter again for the id a read found nothing at, but for the next one', async () => {
    const tops = new Map([['A', 6n]]);
    const { reader } = fakePrimary(tops);
    const watcher = new ArrivalWatcher('orders', (work) => work(reader), 10);
    const w = new Waiter('orders', 'orders', 'u1', ['A'], '5');
    watcher.add(w);
    watcher.arm(w, 'first');
    expect(await w.next(1000)).toBe(true);
    // Its read found nothing at 6 (rolled back): it waits for more than 6.
    watcher.arm(w, 'nothing');
    const again = w.next(200);
    await polls(4);
    tops.set('A', 7n);
    expect(await again).toBe(true);
    watcher.remove(w);
  });
});
