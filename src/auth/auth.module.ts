import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { ApiUserGuard } from './guards/api-user.guard';
import { BearerAuthGuard } from './guards/bearer-auth.guard';
import { JwtStrategy } from './jwt.strategy';
import { KeysModule } from './keys/keys.module';
import { SigningKeys } from './keys/signing-keys';
import { AppConfig } from '../config/app-config';
import { LoginFailuresRepository } from './login-failures.repository';
import { HashQueue } from './passwords/hash-queue';
import { PasswordVerifier } from './passwords/password-verifier.service';
import { RefusalFloor } from './refusal-floor';
import { TokenBodyRefusals } from './token-body-refusals';
import { TokenController } from './token.controller';
import { TokenOutcomes } from './token-outcomes';
import { TokenService } from './token.service';
import { TokenRevocations } from './token-revocations';

@Module({
  imports: [
    BackofficeModule,
    PassportModule,
    KeysModule,
    JwtModule.registerAsync({
      imports: [KeysModule],
      inject: [SigningKeys],
      useFactory: (keys: SigningKeys) => ({
        privateKey: keys.signingKey as string,
        signOptions: { algorithm: keys.algorithm, keyid: keys.keyId },
      }),
    }),
  ],
  controllers: [TokenController],
  providers: [
    TokenService,
    TokenOutcomes,
    TokenBodyRefusals,
    PasswordVerifier,
    LoginFailuresRepository,
    TokenRevocations,
    {
      provide: HashQueue,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new HashQueue(config.PASSWORD_HASH_CONCURRENCY, config.PASSWORD_HASH_QUEUE_SIZE),
    },
    {
      provide: RefusalFloor,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new RefusalFloor(config.LOGIN_MIN_RESPONSE_MS),
    },
    JwtStrategy,
    // Order matters: authenticate first, then check the role.
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: ApiUserGuard },
  ],
  // The failure table, hashing queue, refusal floor and token outcomes: the metrics read them.
  exports: [KeysModule, HashQueue, RefusalFloor, LoginFailuresRepository, TokenOutcomes],
})
export class AuthModule {}
