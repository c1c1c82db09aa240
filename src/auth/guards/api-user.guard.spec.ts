import { Reflector } from '@nestjs/core';
import { ProblemException } from '../../common/errors/problem';
import { callerClaims } from '../../common/testing/caller.fixture';
import { httpContext } from '../../common/testing/http-context';
import { ApiUserGuard } from './api-user.guard';

const caller = (roles: string[]) => callerClaims({ roles });

/** The status a guard call refused with, or 'allowed'. */
function outcome(run: () => boolean): number | 'allowed' {
  try {
    return run() ? 'allowed' : 0;
  } catch (error) {
    if (error instanceof ProblemException) return error.getStatus();
    throw error;
  }
}

describe(ApiUserGuard.name, () => {
  const guard = new ApiUserGuard(new Reflector());

  it('should let a caller with the ApiUser role through', () => {
    expect(outcome(() => guard.canActivate(httpContext({ user: caller(['ApiUser']) })))).toBe(
      'allowed',
    );
  });

  it('should answer 403 to a verified caller without the ApiUser role', () => {
    const context = httpContext({ user: caller(['Manager', 'apiuser']) });
    expect(outcome(() => guard.canActivate(context))).toBe(403);
  });

  it('should answer 403 when no caller was verified', () => {
    expect(outcome(() => guard.canActivate(httpContext({})))).toBe(403);
  });

  it('should let anyone through on a @Public() route', () => {
    const context = httpContext({}, { route: 'publicRoute' });
    expect(outcome(() => guard.canActivate(context))).toBe('allowed');
  });
});
