import { Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { BackofficeUser, BackofficeUsersRepository } from './backoffice-users.repository';
import { currentDeadline, isDeadlineExceeded } from '../common/deadline/deadline';
import { isDatabaseUnavailable } from '../common/errors/database-errors';
import {
  forbidden,
  ProblemException,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
} from '../common/errors/problem';
import { AppConfig } from '../config/app-config';
import { API_USER_ROLE } from './caller';
import { TokenResponseDto } from './dto/token-request.dto';
import { clientKey } from './client-key';
import { withLowS } from './keys/low-s';
import { LoginFailuresRepository, ReservationRefusal } from './login-failures.repository';
import { HashQueue, HashTicket } from './passwords/hash-queue';
import { PasswordVerifier } from './passwords/password-verifier.service';
import { RefusalFloor } from './refusal-floor';
import { TokenOutcomes, TokenRefusal } from './token-outcomes';
import { TOKEN_LIFETIME_SECONDS } from '../config/limits';

const WRONG_CREDENTIALS = 'The username or password is incorrect.';

/** The 429 detail of a refused reservation: a lock, or too many sign-ins of the name at once. */
const REFUSED_RESERVATION: Record<ReservationRefusal, string> = {
  locked: 'Too many failed sign-in attempts for this username; try again later.',
  in_flight:
    'Too many sign-ins of this username are in progress at once; sign in once and reuse the token, or try again in a moment.',
};

/**
 * Why a sign-in was refused, for the server's log only (the answers of the first three are
 * identical, and leave at the same time: the refusal floor).
 */
type RefusalReason =
  'unknown_name' | 'wrong_password' | 'disabled' | 'locked' | 'in_flight' | 'missing_role';

/**
 * Issues tokens: a place in the hashing queue, the reserved guess, user lookup, credentials (a
 * refusal leaves at the floor time), role, shop grants, signature. See docs/auth.md. Counts what
 * became of each request where it is decided (TokenOutcomes): an error it did not decide itself
 * is an outage (`unavailable`, answered 503) or an `error` (500), as the problem filter answers.
 */
@Injectable()
export class TokenService {
  private readonly logger = new Logger('SignIn');

  constructor(
    private readonly users: BackofficeUsersRepository,
    private readonly passwords: PasswordVerifier,
    private readonly failures: LoginFailuresRepository,
    private readonly hashing: HashQueue,
    private readonly floor: RefusalFloor,
    private readonly outcomes: TokenOutcomes,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  /**
   * `clientAddress`: the caller's address as Fastify resolved it (TRUST_PROXY), for the
   * per-address failure budget.
   */
  async issue(
    username: string,
    password: string,
    clientAddress: string | undefined,
  ): Promise<TokenResponseDto> {
    const startedAt = performance.now();
    // A place in the hashing queue first: a flood is shed before it costs any database work.
    const ticket = this.hashing.admit();
    if (!ticket) {
      throw this.refused(
        'shed',
        serviceUnavailable(
          'Too many sign-ins are being verified right now; try again in a moment.',
          1,
        ),
      );
    }
    try {
      const issued = await this.issueWith(
        ticket,
        startedAt,
        username,
        password,
        clientKey(clientAddress, this.config.CLIENT_IPV6_PREFIX_LENGTH),
      );
      // Past the deadline the caller was answered 503 already: this token was never handed out.
      currentDeadline()?.throwIfExpired();
      this.outcomes.issued();
      return issued;
    } catch (error) {
      // The refusals decided below are counted where they are thrown.
      if (!(error instanceof ProblemException)) {
        const unavailable =
          isDeadlineExceeded(error) || currentDeadline()?.expired || isDatabaseUnavailable(error);
        this.outcomes.refused(unavailable ? 'unavailable' : 'error');
      }
      throw error;
    } finally {
      ticket.leave();
    }
  }

  /** One line per refused sign-in with its reason: the operator learns it, the client never. */
  private logRefusal(
    reason: RefusalReason,
    username: string,
    client: string,
    userId?: string,
  ): void {
    this.logger.log(
      { reason, username, ...(userId !== undefined ? { userId } : {}), client },
      `Sign-in refused: ${reason.replace('_', ' ')}`,
    );
  }

  private refused(reason: TokenRefusal, refusal: ProblemException): ProblemException {
    this.outcomes.refused(reason);
    return refusal;
  }

  private async issueWith(
    ticket: HashTicket,
    startedAt: number,
    username: string,
    password: string,
    client: string,
  ): Promise<TokenResponseDto> {
    // The guess is reserved before it is verified; the name as typed is the key whether a user
    // has it or not (the table compares names as the back-office does).
    const reservation = await this.failures.reserve(username, client);
    if (!reservation.reserved) {
      this.logRefusal(reservation.refusal, username, client);
      throw this.refused(
        reservation.refusal,
        tooManyRequests(REFUSED_RESERVATION[reservation.refusal], reservation.retryAfterMs / 1000),
      );
    }
    const user = await this.users.findByUsername(username);
    // Unknown users cost a real verification too; the refusal floor hides what remains.
    const passwordOk = await ticket.run(() =>
      user
        ? this.passwords.verify(password, user.passwordHash, user.id)
        : this.passwords.verifyDummy(password),
    );
    if (!user || !passwordOk || !user.isEnabled) {
      this.logRefusal(
        !user ? 'unknown_name' : !passwordOk ? 'wrong_password' : 'disabled',
        username,
        client,
        user?.id,
      );
      // Only the failure that sets a lock learns it did, so a lock is counted once.
      if (await this.failures.failed(username, client)) this.outcomes.lockout();
      await this.floor.hold(startedAt);
      throw this.refused('invalid_credentials', unauthorized(WRONG_CREDENTIALS));
    }
    await this.failures.succeeded(username, client);
    const roles = await this.users.rolesOf(user.id);
    if (!roles.includes(API_USER_ROLE)) {
      this.logRefusal('missing_role', username, client, user.id);
      throw this.refused(
        'missing_role',
        forbidden(
          `This user does not have the ${API_USER_ROLE} role; ask a back-office administrator.`,
        ),
      );
    }
    const shopCodes = await this.users.shopCodesOf(user.id);
    return this.sign(user, shopCodes);
  }

  /**
   * The token: of the back-office's roles only the one the API uses (ApiUser, held at issue;
   * Administrator, StoreManager, ... are not the API's to publish), and an ES256 signature in its
   * low-s form, so the token has exactly one valid encoding.
   */
  private async sign(user: BackofficeUser, shopCodes: string[]): Promise<TokenResponseDto> {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + TOKEN_LIFETIME_SECONDS;
    const token = await this.jwt.signAsync(
      {
        sub: user.id,
        unique_name: user.username,
        role: [API_USER_ROLE],
        shop_code: shopCodes,
        iat,
        nbf: iat,
        exp,
        jti: randomUUID(),
      },
      { issuer: this.config.JWT_ISSUER, audience: this.config.JWT_AUDIENCE },
    );
    return {
      token: this.config.JWT_ALGORITHM === 'ES256' ? withLowS(token) : token,
      expiration: new Date(exp * 1000).toISOString(),
    };
  }
}
