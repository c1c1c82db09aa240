import {
  CLOCK_TOLERANCE_SECONDS,
  MAX_TOKEN_LIFETIME_SECONDS,
  timeClaimsProblem,
} from './token-claims';
import { TOKEN_LIFETIME_SECONDS } from './token.service';

describe(timeClaimsProblem.name, () => {
  const now = 1_800_000_000;
  const issued = { iat: now, nbf: now, exp: now + TOKEN_LIFETIME_SECONDS, jti: 'j' };

  it('should allow exactly the lifetime the service issues', () => {
    expect(MAX_TOKEN_LIFETIME_SECONDS).toBe(TOKEN_LIFETIME_SECONDS);
  });

  it('should accept the claims the service issues', () => {
    expect(timeClaimsProblem(issued, now)).toBeNull();
  });

  it.each(['exp', 'iat', 'nbf', 'jti'])('should refuse claims without %s', (name) => {
    expect(timeClaimsProblem({ ...issued, [name]: undefined }, now)).toMatch(`no ${name}`);
  });

  it('should refuse times that are not numbers and an empty jti', () => {
    expect(timeClaimsProblem({ ...issued, exp: String(issued.exp) }, now)).toMatch('no exp');
    expect(timeClaimsProblem({ ...issued, iat: Number.NaN }, now)).toMatch('no iat');
    expect(timeClaimsProblem({ ...issued, jti: '' }, now)).toMatch('no jti');
  });

  it('should refuse a lifetime over 48 hours', () => {
    expect(timeClaimsProblem({ ...issued, exp: issued.exp + 1 }, now)).toMatch('48 hours');
  });

  it('should refuse an iat ahead of the clock by more than the tolerance, and allow it within', () => {
    const at = (iat: number) => ({ ...issued, iat, exp: iat + 60 });
    expect(timeClaimsProblem(at(now + CLOCK_TOLERANCE_SECONDS), now)).toBeNull();
    expect(timeClaimsProblem(at(now + CLOCK_TOLERANCE_SECONDS + 1), now)).toMatch('future');
  });
});
