import { currentDeadline } from '../../common/deadline/deadline';
import type { Hold, Mode, ModeQuery } from '../modes/mode';
import type { Source } from '../source';
import type { FeedWait, WakeOutcome } from './waiter';

/**
 * Wait: the read found nothing (`hold`), so the request is held until a row of its shops may be
 * readable, then read again from the same position (nothing skipped, nothing twice), until a read
 * has rows or the time runs out or the instance shuts down: then the empty slice is answered.
 * The request's deadline stops while it is held on purpose and starts again, whole, for the read
 * after each wake (decision 27.3): it bounds the database work, not the Wait.
 */
export async function holdForArrivals<
  Q extends ModeQuery,
  X extends object,
  R extends { id: string },
>(
  scoped: {
    read<Q2 extends ModeQuery, X2 extends object, R2 extends { id: string }>(
      mode: Mode<Q2, X2, object>,
      source: Source<R2>,
      query: Q2,
    ): Promise<{ rows: R2[] } & X2>;
    awaitArrivals(
      source: Source<unknown>,
      query: ModeQuery,
      position: string,
      feed: string,
    ): FeedWait;
  },
  mode: Mode<Q, X, object>,
  source: Source<R>,
  query: Q,
  empty: { rows: R[] } & X,
  hold: Hold,
  feed: string,
): Promise<{ rows: R[] } & X> {
  const deadline = Date.now() + hold.seconds * 1000;
  const clock = currentDeadline();
  const wait = scoped.awaitArrivals(source, query, hold.position, feed);
  try {
    let after: WakeOutcome = 'first';
    clock?.suspend();
    while (await wait.next(deadline - Date.now(), after)) {
      clock?.restart();
      const slice = await scoped.read(mode, source, query);
      const again = mode.hold?.(query, slice);
      if (!again) return slice;
      after = again.inFlight ? 'in-flight' : 'nothing';
      clock?.suspend();
    }
    return empty;
  } finally {
    wait.end();
  }
}
