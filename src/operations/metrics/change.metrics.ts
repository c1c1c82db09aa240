import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { BREAK_CAUSES } from '../../sync/changes/binlog-follower';
import { ChangeSource } from '../../sync/changes/change-source';
import { MetricsService } from './metrics.service';

/** The states of the change source, each a series of pos_api_binlog_state (1 for the current). */
const STATES = ['off', 'connecting', 'catching-up', 'following', 'broken'] as const;

/**
 * The change source (issue 57, docs/operations.md "The binary log"), read at each scrape: its
 * state, how far its reader is behind the primary, the row events it read, its breaks by cause,
 * and the digests' dates by what answered whether they changed (the log, or the fingerprints).
 */
@Injectable()
export class ChangeMetrics {
  constructor(metrics: MetricsService, changes: ChangeSource) {
    const registers = [metrics.registry];
    const state = new Gauge({
      name: 'pos_api_binlog_state',
      help: 'The binary log follower: 1 for its current state (off, connecting, catching-up, following, broken).',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const now = changes.status().state;
        for (const s of STATES) state.set({ state: s }, s === now ? 1 : 0);
      },
    });
    const behind = new Gauge({
      name: 'pos_api_binlog_seconds_behind',
      help: "Seconds from a watermark's commit on the primary to the follower reading it (the last one).",
      registers,
      collect() {
        const status = changes.status();
        behind.set('secondsBehind' in status ? status.secondsBehind : 0);
      },
    });
    const rows = new Counter({
      name: 'pos_api_binlog_rows_total',
      help: 'Row events of the watched tables the follower read.',
      registers,
      collect() {
        rows.reset();
        rows.inc(changes.log?.rows ?? 0);
      },
    });
    const breaks = new Counter({
      name: 'pos_api_binlog_breaks_total',
      help: 'Breaks of the follower (every date dirty, checked by fingerprints again), by cause.',
      labelNames: ['cause'] as const,
      registers,
      collect() {
        breaks.reset();
        // Every cause a series from the start (0), so a dashboard and an alert see it before it happens.
        for (const cause of BREAK_CAUSES)
          breaks.inc({ cause }, changes.log?.breaks.get(cause) ?? 0);
      },
    });
    const dates = new Counter({
      name: 'pos_api_digest_dates_asked_total',
      help: "Digests' cached dates asked whether they changed, by what answered (log, fingerprints).",
      labelNames: ['answered_by'] as const,
      registers,
      collect() {
        dates.reset();
        for (const by of ['log', 'fingerprints'] as const) {
          dates.inc({ answered_by: by }, changes.answered.get(by) ?? 0);
        }
      },
    });
  }
}
