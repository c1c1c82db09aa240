import { Global, Module } from '@nestjs/common';
import { CostLedger } from './cost-ledger';
import { SharedLimitStorage } from './shared-limit.storage';

/**
 * The counters of the rate limits (the report's, the token route's per-address one, the digests'
 * budget), in Redis when REDIS_URL is set: one store, one Redis connection, for every guard that
 * counts.
 */
@Global()
@Module({
  providers: [SharedLimitStorage, CostLedger],
  exports: [SharedLimitStorage, CostLedger],
})
export class ThrottlingModule {}
