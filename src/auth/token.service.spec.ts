import { Logger } from '@nestjs/common';
import type { JwtService } from '@nestjs/jwt';
import type { BackofficeUsersRepository } from './backoffice-users.repository';
import { ProblemException } from '../common/errors/problem';
import type { AppConfig } from '../config/app-config';
import type {
  LoginFailuresRepository,
  Reservation,
  ReservationRefusal,
} from './login-failures.repository';
import { HashQueue } from './passwords/hash-queue';
import type { PasswordVerifier } from './passwords/password-verifier.service';
import { RefusalFloor } from './refusal-floor';
import { TokenOutcomes } from './token-outcomes';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

const USER = { id: '7', username: 'ann', passwordHash: 'h', isEnabled: true };
const DISABLED = { id: '8', username: 'bob', passwordHash: 'h', isEnabled: false };

/** A token service over fakes: `ann` with password `right`, the roles given, grants S1. */
function service(options: {
  roles?: string[];
  reserve?: () => Promise<Reservation>;
  lockedBy?: (failure: number) => boolean;
  hashing?: HashQueue;
}) {
  const outcomes = new TokenOutcomes();
  let failures = 0;
  const users = {
    findByUsername: (name: string) =>
      Promise.resolve([USER, DISABLED].find((user) => user.username === name)),
    rolesOf: () => Promise.resolve(options.roles ?? ['ApiUser']),
    shopCodesOf: () => Promise.resolve(['S1']),
  };
  const passwords = {
    verify: (password: string) => Promise.resolve(password === 'right'),
    verifyDummy: () => Promise.resolve(false),
  };
  const failureTable = {
    reserve: options.reserve ?? (() => Promise.resolve({ reserved: true })),
    failed: () => Promise.resolve(options.lockedBy?.(++failures) ?? false),
    succeeded: () => Promise.resolve(),
  };
  const tokens = new TokenService(
    users as unknown as BackofficeUsersRepository,
    passwords as unknown as PasswordVerifier,
    failureTable as unknown as LoginFailuresRepository,
    options.hashing ?? new HashQueue(2, 2),
    new RefusalFloor(0),
    outcomes,
    { signAsync: () => Promise.resolve('a.b.c') } as unknown as JwtService,
    { JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' } as AppConfig,
  );
  return { outcomes, tokens };
}

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (e: unknown) => (e instanceof ProblemException ? e.getStatus() : 'thrown'),
  );

describe(TokenService.name, () => {
  it('should count a token issued, and no refusal', async () => {
    const { outcomes, tokens } = service({});
    await expect(tokens.issue('ann', 'right', '192.0.2.1')).resolves.toMatchObject({
      token: 'a.b.c',
    });
    expect(outcomes.counts()).toEqual({ issued: 1, refused: new Map(), lockouts: 0 });
  });

  it('should count wrong credentials, and a lock once even when failures race', async () => {
    const { outcomes, tokens } = service({ lockedBy: (failure) => failure === 2 });
    const answers = await Promise.all(
      ['wrong', 'wrong', 'wrong'].map((p) => statusOf(tokens.issue('ann', p, '192.0.2.1'))),
    );
    expect(answers).toEqual([401, 401, 401]);
    await expect(statusOf(tokens.issue('nobody', 'x', '192.0.2.1'))).resolves.toBe(401);
    expect(outcomes.counts()).toEqual({
      issued: 0,
      refused: new Map([['invalid_credentials', 4]]),
      lockouts: 1,
    });
  });

  /** A sign-in whose reservation is refused for `refusal`: its problem and the counts. */
  const refusedReservation = async (refusal: ReservationRefusal, retryAfterMs: number) => {
    const reserve = () => Promise.resolve<Reservation>({ reserved: false, refusal, retryAfterMs });
    const { outcomes, tokens } = service({ reserve });
    const problem = await tokens.issue('ann', 'right', '192.0.2.1').catch((e: unknown) => e);
    expect(problem).toBeInstanceOf(ProblemException);
    return { problem: problem as ProblemException, refused: outcomes.counts().refused };
  };

  it('should count a locked name as locked, without verifying anything', async () => {
    const { problem, refused } = await refusedReservation('locked', 5000);
    expect(problem.getStatus()).toBe(429);
    expect(problem.detail).toMatch(/failed sign-in attempts/);
    expect(refused).toEqual(new Map([['locked', 1]]));
  });

  it('should say too many sign-ins in flight, not failed attempts, when no lock is in force, and count it as in_flight', async () => {
    const { problem, refused } = await refusedReservation('in_flight', 1000);
    expect(problem.getStatus()).toBe(429);
    expect(problem.headers['Retry-After']).toBe('1');
    expect(problem.detail).toMatch(/sign-ins of this username are in progress/);
    expect(problem.detail).not.toMatch(/fail/i);
    expect(refused).toEqual(new Map([['in_flight', 1]]));
  });

  it('should count a user without the ApiUser role as missing_role', async () => {
    const { outcomes, tokens } = service({ roles: ['Cashier'] });
    await expect(statusOf(tokens.issue('ann', 'right', '192.0.2.1'))).resolves.toBe(403);
    expect(outcomes.counts().refused).toEqual(new Map([['missing_role', 1]]));
  });

  it('should count a sign-in shed by a full hashing queue as shed', async () => {
    const hashing = new HashQueue(1, 0);
    hashing.admit();
    const { outcomes, tokens } = service({ hashing });
    await expect(statusOf(tokens.issue('ann', 'right', '192.0.2.1'))).resolves.toBe(503);
    expect(outcomes.counts().refused).toEqual(new Map([['shed', 1]]));
  });

  it('should count an unreachable database as unavailable and any other failure as error', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const unreachable = service({ reserve: () => Promise.reject(down) });
    await expect(unreachable.tokens.issue('ann', 'right', '192.0.2.1')).rejects.toBe(down);
    expect(unreachable.outcomes.counts().refused).toEqual(new Map([['unavailable', 1]]));
    const broken = service({ reserve: () => Promise.reject(new Error('bug')) });
    await expect(broken.tokens.issue('ann', 'right', '192.0.2.1')).rejects.toThrow('bug');
    expect(broken.outcomes.counts().refused).toEqual(new Map([['error', 1]]));
  });
});

describe('TokenService: the reason of a refused sign-in, in the log only', () => {
  let logged: unknown[][];
  beforeEach(() => {
    logged = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation(function (this: Logger, ...args) {
      logged.push([(this as unknown as { context?: string }).context, ...args]);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  const line = (reason: string, username: string, msg: string, userId?: string) => [
    'SignIn',
    { reason, username, ...(userId ? { userId } : {}), client: '192.0.2.1' },
    `Sign-in refused: ${msg}`,
  ];

  it.each([
    ['nobody', 'right', 401, line('unknown_name', 'nobody', 'unknown name')],
    ['ann', 'wrong', 401, line('wrong_password', 'ann', 'wrong password', '7')],
    ['bob', 'right', 401, line('disabled', 'bob', 'disabled', '8')],
    ['bob', 'wrong', 401, line('wrong_password', 'bob', 'wrong password', '8')],
  ])('should log %s / %s (answered %d) as %p', async (name, password, status, expected) => {
    const { tokens } = service({});
    await expect(statusOf(tokens.issue(name, password, '192.0.2.1'))).resolves.toBe(status);
    expect(logged).toStrictEqual([expected]);
  });

  it('should log a user without the role, and a refused reservation, with their reasons', async () => {
    await expect(
      statusOf(service({ roles: ['Cashier'] }).tokens.issue('ann', 'right', '192.0.2.1')),
    ).resolves.toBe(403);
    const reserve = () =>
      Promise.resolve<Reservation>({ reserved: false, refusal: 'in_flight', retryAfterMs: 1 });
    await expect(
      statusOf(service({ reserve }).tokens.issue('ann', 'right', '192.0.2.1')),
    ).resolves.toBe(429);
    expect(logged).toStrictEqual([
      line('missing_role', 'ann', 'missing role', '7'),
      line('in_flight', 'ann', 'in flight'),
    ]);
  });

  it('should log nothing for a token issued', async () => {
    await service({}).tokens.issue('ann', 'right', '192.0.2.1');
    expect(logged).toStrictEqual([]);
  });
});

describe(TokenController.name, () => {
  it("should answer with the service's token for the body's credentials, and its refusal", async () => {
    const { outcomes, tokens } = service({});
    const controller = new TokenController(tokens);
    await expect(
      controller.issue({ username: 'ann', password: 'right' }, '192.0.2.1'),
    ).resolves.toMatchObject({ token: 'a.b.c' });
    await expect(
      statusOf(controller.issue({ username: 'ann', password: 'wrong' }, '192.0.2.1')),
    ).resolves.toBe(401);
    expect(outcomes.counts()).toMatchObject({ issued: 1 });
  });
});
