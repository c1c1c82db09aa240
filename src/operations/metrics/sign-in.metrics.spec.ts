import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import type { LoginFailuresRepository } from '../../auth/login-failures.repository';
import { HashQueue } from '../../auth/passwords/hash-queue';
import { RefusalFloor } from '../../auth/refusal-floor';
import { TokenOutcomes } from '../../auth/token-outcomes';
import { MetricsService } from './metrics.service';
import { SignInMetrics } from './sign-in.metrics';

/** The metrics of a service whose token route counted into `outcomes`. */
function metricsOf(outcomes: TokenOutcomes): MetricsService {
  const metrics = new MetricsService({ isInitialized: false } as DataSource, {} as AppConfig);
  const failures = { locksInForce: () => Promise.resolve({ address: 0, name: 0 }) };
  new SignInMetrics(
    metrics,
    new HashQueue(1, 1),
    new RefusalFloor(0),
    failures as unknown as LoginFailuresRepository,
    outcomes,
  );
  return metrics;
}

const lines = async (metrics: MetricsService, name: string): Promise<string[]> =>
  (await metrics.scrape()).body.split('\n').filter((line) => line.startsWith(name));

describe(SignInMetrics.name, () => {
  it("should expose the token route's outcomes as they stand at each scrape", async () => {
    const outcomes = new TokenOutcomes();
    const metrics = metricsOf(outcomes);
    expect(await lines(metrics, 'pos_api_tokens_issued_total')).toEqual([
      'pos_api_tokens_issued_total 0',
    ]);
    outcomes.issued();
    outcomes.issued();
    outcomes.refused('invalid_credentials');
    outcomes.refused('rate_limited');
    outcomes.refused('invalid_credentials');
    outcomes.lockout();
    await metrics.scrape();
    outcomes.issued();
    expect(await lines(metrics, 'pos_api_tokens_issued_total')).toEqual([
      'pos_api_tokens_issued_total 3',
    ]);
    expect(await lines(metrics, 'pos_api_tokens_refused_total')).toEqual([
      'pos_api_tokens_refused_total{reason="invalid_credentials"} 2',
      'pos_api_tokens_refused_total{reason="rate_limited"} 1',
    ]);
    expect(await lines(metrics, 'pos_api_login_lockouts_total')).toEqual([
      'pos_api_login_lockouts_total 1',
    ]);
  });
});
