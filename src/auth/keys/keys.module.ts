import { Global, Module } from '@nestjs/common';
import { CursorSecret } from '../../common/cursor-secret';
import { AppConfig } from '../../config/app-config';
import { cursorSecretOf, loadSigningKeys, SigningKeys } from './signing-keys';

/**
 * Loads the signing and verification keys once, at start-up, and the cursor secret that defaults
 * to them. Global: common/'s CursorCodec receives the CursorSecret without importing auth/.
 */
@Global()
@Module({
  providers: [
    { provide: SigningKeys, useFactory: loadSigningKeys, inject: [AppConfig] },
    { provide: CursorSecret, useFactory: cursorSecretOf, inject: [AppConfig, SigningKeys] },
  ],
  exports: [SigningKeys, CursorSecret],
})
export class KeysModule {}
