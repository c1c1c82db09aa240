/** What the floor has done so far, for the metrics (operations/metrics reads it on scrape). */
export interface RefusalFloorStats {
  /** Refusals held until the floor. */
  held: number;
  /** Refusals that were already past the floor (their timing was not hidden). */
  overran: number;
  /** Seconds added to refusals in total. */
  paddedSecondsTotal: number;
}

/**
 * Holds every 401 of the token route until LOGIN_MIN_RESPONSE_MS after the request started, so
 * an unknown user, a wrong password under any stored hash format and cost, a disabled user and a
 * broken stored hash all answer after the same time. A refusal already past the floor leaves at
 * once and is counted (overran): the floor is meant to be above the costliest usual verification.
 */
export class RefusalFloor {
  private held = 0;
  private overran = 0;
  private paddedSecondsTotal = 0;

  constructor(readonly floorMs: number) {}

  /** Resolves once `floorMs` has passed since `startedAt` (a performance.now() reading). */
  async hold(startedAt: number): Promise<void> {
    const remaining = this.floorMs - (performance.now() - startedAt);
    if (remaining <= 0) {
      this.overran++;
      return;
    }
    this.held++;
    this.paddedSecondsTotal += remaining / 1000;
    // The global timer (not node:timers/promises), so that a spec's fake clock drives it.
    await new Promise((resolve) => setTimeout(resolve, remaining));
  }

  stats(): RefusalFloorStats {
    return { held: this.held, overran: this.overran, paddedSecondsTotal: this.paddedSecondsTotal };
  }
}
