/**
 * Tables read at once by a pass, a stream or a digest each: two, the service's share of one user
 * (DIGEST_MAX_IN_FLIGHT_PER_USER), so that none waits for a turn. The store takes their
 * transactions one at a time (Serial); two keep the client busy while the service reads.
 */
export const LANES = 2;

/**
 * `work` of each item, LANES at a time, its results in the items' order. The first failure
 * aborts the others (their signal) and is thrown once every lane has stopped, so nothing is
 * written after it.
 */
export async function inLanes<T, R>(
  items: readonly T[],
  signal: AbortSignal | undefined,
  work: (item: T, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const stop = new AbortController();
  const lane = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const results = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | undefined;
  const run = async () => {
    while (next < items.length && !failed) {
      const at = next++;
      try {
        results[at] = await work(items[at], lane);
      } catch (error) {
        failed ??= { error };
        stop.abort(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, items.length) }, run));
  if (failed) throw failed.error;
  return results;
}
