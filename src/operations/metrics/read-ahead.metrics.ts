import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { ReadAhead, type ReadAheadCounts } from '../../backoffice/read-ahead';
import { MetricsService } from './metrics.service';

const OUTCOMES: ReadonlyArray<keyof ReadAheadCounts> = [
  'hits',
  'stale',
  'misses',
  'wasted',
  'failed',
  'skipped',
];

/**
 * The list pages read ahead for walks in progress (decision 29.12), read from ReadAhead at each
 * scrape: what became of them, and how many are held now.
 */
@Injectable()
export class ReadAheadMetrics {
  constructor(metrics: MetricsService, ahead: ReadAhead) {
    const registers = [metrics.registry];
    const outcomes = new Counter({
      name: 'pos_api_list_read_ahead_total',
      help: 'List pages of walks in progress read ahead, by outcome: hits (a request took one the check found unchanged), stale (the check found it changed: read afresh), misses (a request with a Cursor found none), wasted (held unasked until LIST_READ_AHEAD_MS), failed, skipped (not started: the pool busy or the bounds reached).',
      labelNames: ['outcome'] as const,
      registers,
      collect() {
        outcomes.reset();
        const counts = ahead.counts();
        for (const outcome of OUTCOMES) outcomes.inc({ outcome }, counts[outcome]);
      },
    });
    const held = new Gauge({
      name: 'pos_api_list_read_ahead_pages',
      help: 'List pages read ahead and held now on this instance (LIST_READ_AHEAD_MAX_PAGES at most).',
      registers,
      collect() {
        held.set(ahead.size);
      },
    });
  }
}
