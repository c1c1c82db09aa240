import type { FeedSync } from './feeds.js';

/** What a follow is told (MirrorOptions' part). */
export interface FollowOptions {
  signal?: AbortSignal;
  wait?: number;
  limit?: number;
  reconcileEvery?: number;
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Until the signal: each feed held open with Wait, the window reconciled now and then. The
 * first failure stops the other loops before it is thrown, so the file is closed after them.
 */
export async function follow(
  feeds: FeedSync[],
  o: FollowOptions,
  summary: { records: number },
  reconcileAll: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const inner = new AbortController();
  const stop = () => inner.abort();
  o.signal?.addEventListener('abort', stop, { once: true });
  const signal = inner.signal;
  const feedLoop = async (feed: FeedSync) => {
    while (!signal.aborted) {
      summary.records += await feed.catchUp({ wait: o.wait ?? 20, limit: o.limit, signal });
    }
  };
  const reconcileLoop = async () => {
    for (;;) {
      await pause((o.reconcileEvery ?? 300) * 1000, signal);
      if (signal.aborted) return;
      await reconcileAll(signal);
    }
  };
  const loops = [...feeds.map(feedLoop), reconcileLoop()].map((loop) =>
    loop.catch((error: unknown) => {
      stop();
      throw error;
    }),
  );
  const results = await Promise.allSettled(loops);
  o.signal?.removeEventListener('abort', stop);
  if (o.signal?.aborted) return;
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
