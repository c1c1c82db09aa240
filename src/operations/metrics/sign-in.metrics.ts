import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { LOCK_SCOPES, type LockScope } from '../../auth/lockout-policy';
import { LoginFailuresRepository } from '../../auth/login-failures.repository';
import { HashQueue } from '../../auth/passwords/hash-queue';
import { RefusalFloor } from '../../auth/refusal-floor';
import { TokenOutcomes } from '../../auth/token-outcomes';
import { MetricsService } from './metrics.service';

/** A counter whose value is read from its source at each scrape. */
function counterOf(metrics: MetricsService, name: string, help: string, read: () => number): void {
  const counter = new Counter({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      counter.reset();
      counter.inc(read());
    },
  });
}

/**
 * What an operator needs to see a sign-in attack in progress, read at each scrape from the
 * token route's own counters: tokens issued and refused by reason, locks set and in force, the
 * password-hashing queue (running, queued, shed, waiting time) and the refusal floor (held,
 * overran). See docs/operations.md.
 */
@Injectable()
export class SignInMetrics {
  constructor(
    metrics: MetricsService,
    hashing: HashQueue,
    floor: RefusalFloor,
    failures: LoginFailuresRepository,
    outcomes: TokenOutcomes,
  ) {
    counterOf(
      metrics,
      'pos_api_tokens_issued_total',
      'Tokens issued by POST /api/v1.0/Token.',
      () => outcomes.counts().issued,
    );
    const refused = new Counter({
      name: 'pos_api_tokens_refused_total',
      help: 'Token requests refused, by reason.',
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
      collect() {
        refused.reset();
        for (const [reason, count] of outcomes.counts().refused) refused.inc({ reason }, count);
      },
    });
    counterOf(
      metrics,
      'pos_api_login_lockouts_total',
      'Usernames locked after too many consecutive sign-in failures.',
      () => outcomes.counts().lockouts,
    );
    const queue = new Gauge({
      name: 'pos_api_password_hash_queue',
      help: 'Password verifications running now and sign-ins waiting for one, by state.',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
      collect() {
        const stats = hashing.stats();
        queue.set({ state: 'running' }, stats.running);
        queue.set({ state: 'queued' }, stats.queued);
        queue.set({ state: 'capacity' }, hashing.concurrency + hashing.queueSize);
      },
    });
    counterOf(
      metrics,
      'pos_api_password_hash_shed_total',
      'Sign-ins answered 503 because the hashing queue was full (nothing verified).',
      () => hashing.stats().shed,
    );
    counterOf(
      metrics,
      'pos_api_password_hash_verifications_total',
      'Password verifications finished.',
      () => hashing.stats().verified,
    );
    counterOf(
      metrics,
      'pos_api_password_hash_wait_seconds_total',
      'Seconds sign-ins waited for a verification slot, summed.',
      () => hashing.stats().waitSecondsTotal,
    );
    const floored = new Counter({
      name: 'pos_api_login_refusal_floor_total',
      help: 'Token 401s by how the refusal floor met them: held (padded to the floor) or overran (already past it: timing not hidden).',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
      collect() {
        const stats = floor.stats();
        floored.reset();
        floored.inc({ outcome: 'held' }, stats.held);
        floored.inc({ outcome: 'overran' }, stats.overran);
      },
    });
    counterOf(
      metrics,
      'pos_api_login_refusal_floor_padding_seconds_total',
      'Seconds the refusal floor added to token 401s, summed.',
      () => floor.stats().paddedSecondsTotal,
    );
    // Read from the database in the background: a scrape never waits for it (nor hangs with it).
    let locks: Record<LockScope, number> | undefined;
    let reading = false;
    const refreshLocks = (): void => {
      if (reading) return;
      reading = true;
      void failures
        .locksInForce()
        .then((now) => (locks = now))
        .catch(() => undefined)
        .finally(() => (reading = false));
    };
    const locked = new Gauge({
      name: 'pos_api_login_locked',
      help: 'Sign-in locks in force as of the previous scrape, by scope: a name from one address, or a name from every address.',
      labelNames: ['scope'] as const,
      registers: [metrics.registry],
      collect() {
        refreshLocks();
        if (!locks) return;
        for (const scope of LOCK_SCOPES) locked.set({ scope }, locks[scope]);
      },
    });
  }
}
