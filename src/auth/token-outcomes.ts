import { Injectable } from '@nestjs/common';

/** Why a token request was refused (label `reason` of pos_api_tokens_refused_total). */
export type TokenRefusal =
  | 'invalid_request'
  | 'invalid_credentials'
  | 'missing_role'
  | 'locked'
  | 'in_flight'
  | 'rate_limited'
  | 'unavailable'
  | 'shed'
  | 'error';

interface TokenOutcomeCounts {
  issued: number;
  /** Refusals by reason; a reason never seen is absent. */
  refused: ReadonlyMap<TokenRefusal, number>;
  /** Locks set by a failure (counted once per lock, even when guesses race). */
  lockouts: number;
}

/**
 * What became of token requests, counted where it is decided: by TokenService (issued, bad
 * credentials, missing role, locked name, too many sign-ins of a name in flight, shed, the failure that set a lock, an outage), by
 * TokenIpThrottlerGuard (the per-address limit) and by TokenBodyRefusals (bodies refused before
 * the route's code runs). Operations reads the counts at each scrape (SignInMetrics), so auth
 * does not import operations.
 */
@Injectable()
export class TokenOutcomes {
  private issuedCount = 0;
  private lockoutCount = 0;
  private readonly refusedCounts = new Map<TokenRefusal, number>();

  issued(): void {
    this.issuedCount++;
  }

  refused(reason: TokenRefusal): void {
    this.refusedCounts.set(reason, (this.refusedCounts.get(reason) ?? 0) + 1);
  }

  lockout(): void {
    this.lockoutCount++;
  }

  counts(): TokenOutcomeCounts {
    return {
      issued: this.issuedCount,
      refused: new Map(this.refusedCounts),
      lockouts: this.lockoutCount,
    };
  }
}
