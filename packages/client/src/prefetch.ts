/** A page whose answer has begun: its headers are in, its body may still be arriving. */
export interface OpenedPage<P> {
  /**
   * The next page's cursor from the answer's `Link: <…>; rel="next"` header, known before the
   * body; null when the answer has none (the last page, or a server without the header).
   */
  linkCursor: string | null;
  body(): Promise<P>;
}

/** Asks for the page at `cursor` (null: the first); resolves once its headers are in. */
export type OpenPage<P> = (cursor: string | null, signal: AbortSignal) => Promise<OpenedPage<P>>;

interface InFlight<P> {
  cursor: string | null;
  controller: AbortController;
  opened: Promise<OpenedPage<P>>;
}

/** The cursor of a `Link: <…>; rel="next"` header, resolved against the answer's URL. */
export function nextCursorOfLink(link: string | null, url: string): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match || !/(^|;)\s*rel="?next"?\s*(;|$)/i.test(match[2])) continue;
    try {
      return new URL(match[1], url).searchParams.get('Cursor');
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The pages from `start`, each with the cursor that fetched it, the next one asked for as soon
 * as its cursor is known: from the Link header while this page's body is still arriving, else
 * from the body. Bounded: at most one request in flight beyond the page being read, and that
 * one is aborted when the consumer stops early (`break`) or the walk fails. `nextOf` says where
 * a page's walk goes on (null: it ends there). Without `prefetch`, one request at a time.
 */
export async function* prefetchedPages<P>(
  open: OpenPage<P>,
  start: string | null,
  nextOf: (page: P) => string | null,
  options: { signal?: AbortSignal; prefetch: boolean },
): AsyncGenerator<{ page: P; cursor: string | null }, void, undefined> {
  const launch = (cursor: string | null): InFlight<P> => {
    const controller = new AbortController();
    const signal = options.signal
      ? AbortSignal.any([options.signal, controller.signal])
      : controller.signal;
    const opened = open(cursor, signal);
    // Awaited later, or never when the consumer stops first: not an unhandled rejection.
    opened.catch(() => undefined);
    return { cursor, controller, opened };
  };
  let current = launch(start);
  let ahead: InFlight<P> | undefined;
  try {
    for (;;) {
      const opened = await current.opened;
      if (options.prefetch && opened.linkCursor !== null) ahead = launch(opened.linkCursor);
      const page = await opened.body();
      const next = nextOf(page);
      if (ahead && ahead.cursor !== next) {
        // The header and the body disagree: the body is the contract.
        ahead.controller.abort();
        ahead = undefined;
      }
      if (options.prefetch && !ahead && next !== null) ahead = launch(next);
      yield { page, cursor: current.cursor };
      if (next === null) return;
      current = ahead ?? launch(next);
      ahead = undefined;
    }
  } finally {
    ahead?.controller.abort();
  }
}
