/** One call counted against a sliding window: the outcome, whatever stores the calls. */
export interface WindowHit {
  /** Whether the call is within the limit (then it was recorded). */
  allowed: boolean;
  /** Calls recorded within the window ending now, this one included when allowed. */
  count: number;
  /** Milliseconds until the oldest recorded call leaves the window (a call is free again). */
  resetMs: number;
}

/**
 * A sliding window log: a call is allowed when fewer than `limit` calls were allowed in the
 * `windowMs` before it, and only allowed calls are recorded. So no interval of `windowMs` ever
 * holds more than `limit` allowed calls, wherever it starts; refused calls do not lengthen the
 * wait. The Redis script (redis-sliding-window.ts) is the same algorithm, shared by instances.
 */
export interface SlidingWindow {
  /** `id` names the call, so that it can be refunded; unique per call. */
  hit(key: string, windowMs: number, limit: number, id?: string): Promise<WindowHit>;
  /**
   * Takes call `id` back out of the window, as if it had never been made (a call the service
   * refused after counting it). Also when it arrives before the hit it cancels (a hit still in
   * flight to Redis): that hit is then not recorded. Idempotent.
   */
  refund(key: string, id: string, windowMs: number): Promise<void>;
}

/** Keys above which a hit also drops every key whose calls have all left their window. */
const SWEEP_ABOVE_KEYS = 10_000;

/** The sliding window of one instance, in memory (REDIS_URL unset). */
export class MemorySlidingWindow implements SlidingWindow {
  private readonly calls = new Map<string, { times: number[]; ids: string[]; windowMs: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  // Stryker disable next-line StringLiteral: the default only marks a call as one no refund names (refund ignores ''); another constant differs only for a refund of that very string, and callers refund the ids they gave
  hit(key: string, windowMs: number, limit: number, id = ''): Promise<WindowHit> {
    const now = this.now();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: when the sweep runs changes memory only: a key it drops has no call left in its window, as its next hit would find
    if (this.calls.size > SWEEP_ABOVE_KEYS) this.sweep(now);
    // Calls at exactly now - windowMs have left the window, as in the Redis script.
    // Mutation testing: `times: ["Stryker was here"]` survives, and is equivalent: a string is
    // never > a number, so the line below drops it. Not disabled: the same mutant of `ids` is not.
    const entry = this.calls.get(key) ?? { times: [], ids: [], windowMs };
    const first = entry.times.findIndex((t) => t > now - windowMs);
    const kept = first < 0 ? entry.times.length : first;
    const times = entry.times.slice(kept);
    const ids = entry.ids.slice(kept);
    const allowed = times.length < limit;
    if (allowed) {
      times.push(now);
      ids.push(id);
    }
    this.calls.set(key, { times, ids, windowMs });
    const resetMs = times.length > 0 ? times[0] + windowMs - now : 0;
    return Promise.resolve({ allowed, count: times.length, resetMs });
  }

  /** In memory a hit is never in flight: only recorded calls are taken back. */
  refund(key: string, id: string): Promise<void> {
    const entry = this.calls.get(key);
    // Stryker disable next-line UnaryOperator: without an entry, the condition below is false before it reads at
    const at = entry ? entry.ids.indexOf(id) : -1;
    // Mutation testing: `true && at >= 0` survives, and is equivalent: without an entry at is -1.
    // Not disabled: `entry && true && at >= 0`, of the same mutator, is killed.
    if (entry && id !== '' && at >= 0) {
      entry.times.splice(at, 1);
      entry.ids.splice(at, 1);
    }
    return Promise.resolve();
  }

  // The sweep frees memory only: a key it drops has no call left in its window, and its next hit
  // would find none either way. So a mutant that drops fewer keys changes no caller's answer.
  // Stryker disable next-line BlockStatement: drops no key (memory only, see above)
  private sweep(now: number): void {
    // Stryker disable next-line BlockStatement: drops no key (memory only, see above)
    for (const [key, { times, windowMs }] of this.calls) {
      // Mutation testing: `false`, `(t) => false` and `t < now - windowMs` survive, as memory-only
      // mutants; not disabled: `true` and `(t) => true`, of the same mutator, are killed.
      // Stryker disable next-line ArrowFunction: drops no key (memory only, see above)
      if (times.every((t) => t <= now - windowMs)) this.calls.delete(key);
    }
  }
}
