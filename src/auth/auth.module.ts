import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule, type JwtModuleOptions } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { BackofficeUsersRepository } from './backoffice-users.repository';
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
import { SignInConnections } from './sign-in-connections';
import { TokenBodyRefusals } from './token-body-refusals';
import { TokenController } from './token.controller';
import { TokenOutcomes } from './token-outcomes';
import { TokenService } from './token.service';
import { TokenRevocations } from './token-revocations';

/** How tokens are signed: with the current key, its algorithm, and its kid in the header. */
export function jwtOptionsOf(keys: SigningKeys): JwtModuleOptions {
  return {
    privateKey: keys.signingKey,
    signOptions: { algorithm: keys.algorithm, keyid: keys.keyId },
  };
}

/** The password hashing queue of the configuration's size (PASSWORD_HASH_*). */
export function hashQueueOf(config: AppConfig): HashQueue {
  return new HashQueue(config.PASSWORD_HASH_CONCURRENCY, config.PASSWORD_HASH_QUEUE_SIZE);
}

/** The failure table's share of the primary pool: a quarter of DATABASE_POOL_SIZE (decision 29.11). */
export function signInConnectionsOf(config: AppConfig): SignInConnections {
  return SignInConnections.ofPool(config.DATABASE_POOL_SIZE);
}

/** The refusals' minimum response time (LOGIN_MIN_RESPONSE_MS). */
export function refusalFloorOf(config: AppConfig): RefusalFloor {
  return new RefusalFloor(config.LOGIN_MIN_RESPONSE_MS);
}

@Module({
  imports: [
    PassportModule,
    KeysModule,
    JwtModule.registerAsync({
      imports: [KeysModule],
      inject: [SigningKeys],
      useFactory: jwtOptionsOf,
    }),
  ],
  controllers: [TokenController],
  providers: [
    BackofficeUsersRepository,
    TokenService,
    TokenOutcomes,
    TokenBodyRefusals,
    PasswordVerifier,
    LoginFailuresRepository,
    TokenRevocations,
    { provide: HashQueue, inject: [AppConfig], useFactory: hashQueueOf },
    { provide: RefusalFloor, inject: [AppConfig], useFactory: refusalFloorOf },
    { provide: SignInConnections, inject: [AppConfig], useFactory: signInConnectionsOf },
    JwtStrategy,
    // Order matters: authenticate first, then check the role.
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: ApiUserGuard },
  ],
  // The failure table, hashing queue, refusal floor and token outcomes: the metrics read them;
  // the revocations' currency: readiness reads it.
  exports: [
    KeysModule,
    HashQueue,
    RefusalFloor,
    LoginFailuresRepository,
    TokenOutcomes,
    TokenRevocations,
  ],
})
export class AuthModule {}
