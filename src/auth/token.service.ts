import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import {
  BackofficeUser,
  BackofficeUsersRepository,
} from '../backoffice/backoffice-users.repository';
import { forbidden, tooManyRequests, unauthorized } from '../common/errors/problem';
import { AppConfig } from '../config/app-config';
import { API_USER_ROLE } from './caller';
import { TokenResponseDto } from './dto/token-request.dto';
import { asLockingFailure } from './locking-failure';
import { loginFailureKey } from './login-failure-key';
import { LoginFailuresRepository } from './login-failures.repository';
import { PasswordVerifier } from './passwords/password-verifier.service';

/** Token lifetime, fixed by the contract: 2 days. */
export const TOKEN_LIFETIME_SECONDS = 48 * 60 * 60;

const WRONG_CREDENTIALS = 'The username or password is incorrect.';

/** Issues tokens: user lookup, lockout check, credentials, role, shop grants, signature. */
@Injectable()
export class TokenService {
  constructor(
    private readonly users: BackofficeUsersRepository,
    private readonly passwords: PasswordVerifier,
    private readonly failures: LoginFailuresRepository,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  async issue(username: string, password: string): Promise<TokenResponseDto> {
    // Failures count against the user the name finds (any spelling the back-office collation
    // matches), else against the folded name; the lock is checked before any password.
    const user = await this.users.findByUsername(username);
    const failureKey = loginFailureKey(username, user?.id);
    const lockedMs = await this.failures.lockedForMs(failureKey);
    if (lockedMs > 0) {
      throw tooManyRequests(
        'Too many failed sign-in attempts for this username; try again later.',
        lockedMs / 1000,
      );
    }
    // Unknown users cost a real verification too, so timing does not tell them apart.
    const passwordOk = user
      ? await this.passwords.verify(password, user.passwordHash, user.id)
      : await this.passwords.verifyDummy(password);
    if (!user || !passwordOk || !user.isEnabled) {
      const lockedNow = await this.failures.recordFailure(failureKey);
      const refusal = unauthorized(WRONG_CREDENTIALS);
      throw lockedNow ? asLockingFailure(refusal) : refusal;
    }
    await this.failures.reset(failureKey);
    const roles = await this.users.rolesOf(user.id);
    if (!roles.includes(API_USER_ROLE)) {
      throw forbidden(
        `This user does not have the ${API_USER_ROLE} role; ask a back-office administrator.`,
      );
    }
    const shopCodes = await this.users.shopCodesOf(user.id);
    return this.sign(user, roles, shopCodes);
  }

  private async sign(
    user: BackofficeUser,
    roles: string[],
    shopCodes: string[],
  ): Promise<TokenResponseDto> {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + TOKEN_LIFETIME_SECONDS;
    const token = await this.jwt.signAsync(
      {
        sub: user.id,
        unique_name: user.username,
        role: roles,
        shop_code: shopCodes,
        iat,
        nbf: iat,
        exp,
        jti: randomUUID(),
      },
      { issuer: this.config.JWT_ISSUER, audience: this.config.JWT_AUDIENCE },
    );
    return { token, expiration: new Date(exp * 1000).toISOString() };
  }
}
