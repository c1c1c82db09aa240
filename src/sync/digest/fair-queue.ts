/** Why FairQueue did not give a call a turn. */
export type QueueRefusal =
  /** The user already has `perUser` running and `waitingPerUser` waiting: their share. */
  | 'user-share'
  /** The call waited until its `signal` aborted (the wait its request's deadline allows). */
  | 'waited'
  /** Every user's waiting calls together reach `waitingTotal`: the instance is saturated. */
  | 'saturated';

export class QueueRefused extends Error {
  constructor(readonly reason: QueueRefusal) {
    super(`FairQueue refused a call: ${reason}`);
    this.name = 'QueueRefused';
  }
}

export interface FairQueueLimits {
  /** Calls running at once, every user's: the instance's capacity. */
  capacity: number;
  /** Calls of one user running at once: a user's share of the capacity. */
  perUser: number;
  /** Calls of one user waiting for a turn; one more is refused ('user-share'). */
  waitingPerUser: number;
  /** Calls waiting, every user's; one more is refused ('saturated'). */
  waitingTotal: number;
}

interface Waiter {
  start: () => void;
}

interface UserLine {
  running: number;
  waiting: Waiter[];
}

/**
 * Turns of an expensive read, fair between users (decision 54.1). Each user has a line of waiting
 * calls; a free place goes to the waiting user under their share (`perUser` running) with the
 * fewest calls running, ties round-robin (the user served last goes to the end), so one user's
 * tenth call never goes before another user's first, and a place one user gives back goes to the
 * others first. A call
 * runs at once only when nobody waits before it. Refusals are immediate (the user's share of
 * waiting places, or the instance's) or come when the call's signal aborts while it waits.
 */
export class FairQueue {
  private readonly lines = new Map<string, UserLine>();
  /** Users in round-robin order: a user joins at the end when their line starts waiting. */
  private ring: string[] = [];
  private running = 0;
  private waitingCount = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  /** Calls of `userId` running now. */
  runningOf(userId: string): number {
    return this.lines.get(userId)?.running ?? 0;
  }

  /** Calls of `userId` waiting for a turn now. */
  waitingOf(userId: string): number {
    return this.lines.get(userId)?.waiting.length ?? 0;
  }

  /**
   * A turn for one call of `userId`: resolves with the function that ends it (idempotent), or
   * rejects with QueueRefused. `signal` ends the wait (not a running call).
   */
  enter(userId: string, signal?: AbortSignal): Promise<() => void> {
    const line = this.lineOf(userId);
    const { perUser, waitingPerUser, waitingTotal } = this.limits;
    if (line.running >= perUser && line.waiting.length >= waitingPerUser) {
      this.forget(userId, line);
      return Promise.reject(new QueueRefused('user-share'));
    }
    if (this.waitingCount >= waitingTotal && !this.canStart(line)) {
      this.forget(userId, line);
      return Promise.reject(new QueueRefused('saturated'));
    }
    if (signal?.aborted) {
      this.forget(userId, line);
      return Promise.reject(new QueueRefused('waited'));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.ender(userId, line));
        },
      };
      const onAbort = (): void => {
        const at = line.waiting.indexOf(waiter);
        if (at < 0) return;
        line.waiting.splice(at, 1);
        this.waitingCount--;
        this.forget(userId, line);
        reject(new QueueRefused('waited'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (line.waiting.length === 0 && !this.ring.includes(userId)) this.ring.push(userId);
      line.waiting.push(waiter);
      this.waitingCount++;
      this.dispatch();
    });
  }

  /** A place is free and nobody waits who would go first: the call may start at once. */
  private canStart(line: UserLine): boolean {
    return (
      this.running < this.limits.capacity &&
      line.running < this.limits.perUser &&
      !this.anyWaiting()
    );
  }

  private anyWaiting(): boolean {
    return this.waitingCount > 0;
  }

  /**
   * Gives free places to the users who wait and are under their share: the one with the fewest
   * calls running first (a place one user gives back goes to the others first), ties in
   * round-robin order.
   */
  private dispatch(): void {
    while (this.running < this.limits.capacity) {
      let at = -1;
      let fewest = this.limits.perUser;
      this.ring.forEach((user, index) => {
        const line = this.lines.get(user)!;
        if (line.waiting.length > 0 && line.running < fewest) [at, fewest] = [index, line.running];
      });
      if (at < 0) return;
      const [user] = this.ring.splice(at, 1);
      const line = this.lines.get(user)!;
      const waiter = line.waiting.shift()!;
      this.waitingCount--;
      line.running++;
      this.running++;
      // Served: the user goes to the end of the ring, behind everyone else who waits.
      if (line.waiting.length > 0) this.ring.push(user);
      waiter.start();
    }
  }

  private ender(userId: string, line: UserLine): () => void {
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      line.running--;
      this.running--;
      this.forget(userId, line);
      this.dispatch();
    };
  }

  private lineOf(userId: string): UserLine {
    let line = this.lines.get(userId);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(userId, line);
    }
    return line;
  }

  /** Drops a user with nothing running or waiting: the map holds only users with calls. */
  private forget(userId: string, line: UserLine): void {
    if (line.running > 0 || line.waiting.length > 0) return;
    this.lines.delete(userId);
    this.ring = this.ring.filter((user) => user !== userId);
  }
}
