import { TOKEN_LIFETIME_HOURS, TOKEN_LIFETIME_SECONDS } from '../config/limits';
import { CLOCK_TOLERANCE_SECONDS, timeClaimsProblem } from './token-claims';

describe(timeClaimsProblem.name, () => {
  const now = 1_800_000_000;
  const issued = { iat: now, nbf: now, exp: now + TOKEN_LIFETIME_SECONDS, jti: 'j' };

  it('should allow exactly the lifetime the service issues', () => {
    expect(TOKEN_LIFETIME_SECONDS).toBe(48 * 60 * 60);
    expect(timeClaimsProblem({ ...issued, exp: now + TOKEN_LIFETIME_SECONDS }, now)).toBeNull();
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

  it(`should refuse a lifetime over ${TOKEN_LIFETIME_HOURS} hours`, () => {
    expect(timeClaimsProblem({ ...issued, exp: issued.exp + 1 }, now)).toMatch(
      `more than ${TOKEN_LIFETIME_HOURS} hours`,
    );
  });

  it('should refuse an iat ahead of the clock by more than the tolerance, and allow it within', () => {
    const at = (iat: number) => ({ ...issued, iat, exp: iat + 60 });
    expect(timeClaimsProblem(at(now + CLOCK_TOLERANCE_SECONDS), now)).toBeNull();
    expect(timeClaimsProblem(at(now + CLOCK_TOLERANCE_SECONDS + 1), now)).toMatch('future');
  });
});
