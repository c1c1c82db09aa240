import type { DataSource } from 'typeorm';
import { ReadAhead } from '../../backoffice/read-ahead';
import { callerClaims } from '../../common/testing/caller.fixture';
import type { AppConfig } from '../../config/app-config';
import { MetricsService } from './metrics.service';
import { ReadAheadMetrics } from './read-ahead.metrics';

const lines = async (metrics: MetricsService, name: string): Promise<string[]> =>
  (await metrics.scrape()).body.split('\n').filter((line) => line.startsWith(name));

const unchanged = () => Promise.resolve(true);

describe(ReadAheadMetrics.name, () => {
  it('should expose what became of the pages read ahead, and those held, at each scrape', async () => {
    const metrics = new MetricsService({ isInitialized: false } as DataSource, {} as AppConfig);
    const config = { LIST_READ_AHEAD_MS: 1_000, LIST_READ_AHEAD_MAX_PAGES: 8 } as AppConfig;
    const ahead = new ReadAhead(config);
    new ReadAheadMetrics(metrics, ahead);
    const caller = callerClaims();
    const query = { shopCode: null, limit: 10 };
    ahead.start(caller, 'sales', query, () => Promise.resolve({ rows: [] }));
    ahead.start(caller, 'sales', { ...query, limit: 11 }, () => Promise.resolve({ rows: [] }));
    ahead.start(caller, 'sales', { ...query, limit: 12 }, () => Promise.resolve({ rows: [] }));
    await ahead.take(caller, 'sales', query, unchanged);
    expect(ahead.take(caller, 'payments', query, unchanged)).toBeUndefined();
    expect(await lines(metrics, 'pos_api_list_read_ahead_total')).toEqual([
      'pos_api_list_read_ahead_total{outcome="hits"} 1',
      'pos_api_list_read_ahead_total{outcome="stale"} 0',
      'pos_api_list_read_ahead_total{outcome="misses"} 1',
      'pos_api_list_read_ahead_total{outcome="wasted"} 0',
      'pos_api_list_read_ahead_total{outcome="failed"} 0',
      'pos_api_list_read_ahead_total{outcome="skipped"} 1',
    ]);
    expect(await lines(metrics, 'pos_api_list_read_ahead_pages')).toEqual([
      'pos_api_list_read_ahead_pages 1',
    ]);
  });
});
