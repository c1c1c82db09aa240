import { Global, Module } from '@nestjs/common';
import { DigestAdmission } from './digest-budget';
import { SharedLimitStorage } from './shared-limit.storage';

/**
 * The counters of the rate limits (the report's, the token route's per-address one, the digests'
 * budget), in Redis when REDIS_URL is set: one store, one Redis connection, for every guard that
 * counts; and the digests' admission, one per instance for every digest route.
 */
@Global()
@Module({
  providers: [SharedLimitStorage, DigestAdmission],
  exports: [SharedLimitStorage, DigestAdmission],
})
export class ThrottlingModule {}
