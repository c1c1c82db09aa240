import { currentDeadline } from '../../common/deadline/deadline';
import type { Hold } from '../paging/mode';
import type { FeedWait, WakeOutcome } from './waiter';

/**
 * Wait: the read found nothing (`hold`), so the request is held on `wait` until a row of its
 * shops may be readable, then read again from the same position (`readAgain`: nothing skipped,
 * nothing twice), until a read has rows (`holdsAgain` gives no hold) or the time runs out or the
 * instance shuts down: then the empty slice is answered. The request's deadline stops while it is
 * held on purpose and starts again, whole, for the read after each wake (decision 27.3): it
 * bounds the database work, not the Wait.
 */
export async function holdForArrivals<S>(
  wait: FeedWait,
  hold: Hold,
  empty: S,
  readAgain: () => Promise<S>,
  holdsAgain: (slice: S) => Hold | null | undefined,
): Promise<S> {
  const deadline = Date.now() + hold.seconds * 1000;
  const clock = currentDeadline();
  try {
    let after: WakeOutcome = 'first';
    clock?.suspend();
    while (await wait.next(deadline - Date.now(), after)) {
      clock?.restart();
      const slice = await readAgain();
      const again = holdsAgain(slice);
      if (!again) return slice;
      after = again.inFlight ? 'in-flight' : 'nothing';
      clock?.suspend();
    }
    return empty;
  } finally {
    wait.end();
  }
}
