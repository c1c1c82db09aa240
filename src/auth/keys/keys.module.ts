import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { loadSigningKeys, SigningKeys } from './signing-keys';

/** Loads the signing and verification keys once, at start-up. */
@Module({
  providers: [{ provide: SigningKeys, useFactory: loadSigningKeys, inject: [AppConfig] }],
  exports: [SigningKeys],
})
export class KeysModule {}
