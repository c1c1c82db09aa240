import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { FeedWaiters } from '../../sync/feed/feed-waiters';
import { MetricsService } from './metrics.service';

/**
 * The waiting feeds, read from FeedWaiters at each scrape: the requests held by `Wait` now, and
 * the statements the arrival polls have sent (one per table and interval while anybody waits),
 * and the waiters woken by an arrival.
 */
@Injectable()
export class FeedMetrics {
  constructor(metrics: MetricsService, waiters: FeedWaiters) {
    const registers = [metrics.registry];
    const held = new Gauge({
      name: 'pos_api_feed_waiters',
      help: 'Feed requests held by Wait on this instance, by feed (sales, payments, cash-movements).',
      labelNames: ['feed'] as const,
      registers,
      collect() {
        for (const [feed, count] of waiters.counts()) held.set({ feed }, count);
      },
    });
    const polls = new Counter({
      name: 'pos_api_feed_polls_total',
      help: 'Statements the arrival polls of the waiting feeds sent to the primary, by feed.',
      labelNames: ['feed'] as const,
      registers,
      collect() {
        polls.reset();
        for (const [feed, { polls: count }] of waiters.activity()) polls.inc({ feed }, count);
      },
    });
    const wakes = new Counter({
      name: 'pos_api_feed_wakes_total',
      help: 'Waiting feed requests woken by an arrival in one of their shops (each then reads again), by feed.',
      labelNames: ['feed'] as const,
      registers,
      collect() {
        wakes.reset();
        for (const [feed, { wakes: count }] of waiters.activity()) wakes.inc({ feed }, count);
      },
    });
  }
}
