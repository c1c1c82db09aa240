import type { CursorResource } from '../resources.js';
import type { MirrorEvent } from './feeds.js';
import type { Json } from './jcs.js';
import type { MirrorRows } from './mirror-rows.js';

type ApiRecord = Record<string, Json>;

/** A re-read of one shop's drawer sessions under way, as kept in `mirror_state`. */
interface SessionWalk {
  from: string;
  to: string;
  /** The list's cursor of the next page. */
  cursor: string;
  /** The (openedAt, id) of the last session written. */
  after: [string, string];
}

/**
 * The drawer sessions have a list only: a session changes when it is counted, hours or a night
 * after it opened (docs/sync.md, "Feeds and period endpoints"). So each pass re-reads, per shop,
 * the sessions opened in its period (the window the digests compare, or --from/--to), page by
 * page, each page with the walk's cursor in one transaction: a pass stopped half-way resumes
 * from the last page written, and a session the server no longer lists is deleted from the span
 * its page covered. A session opened before the period keeps what the last read of it said.
 * Returns the sessions written.
 */
export async function refreshSessions(
  resource: Pick<CursorResource<ApiRecord>, 'list'>,
  rows: MirrorRows,
  shop: string,
  period: { from: string; to: string },
  o: { limit?: number; signal?: AbortSignal; emit: (event: MirrorEvent) => void },
): Promise<number> {
  const key = `sessions:${shop}`;
  const saved = await rows.state(key);
  const resumed = saved ? (JSON.parse(saved) as SessionWalk) : undefined;
  const walk = { ...(resumed ?? period), after: resumed?.after ?? null };
  const list = resource.list({
    shopCode: shop,
    from: walk.from,
    to: walk.to,
    cursor: resumed?.cursor,
    limit: o.limit,
    signal: o.signal,
  });
  let written = 0;
  for await (const page of list.pages()) {
    const last = page.data.at(-1);
    // An empty page before the last (none is expected) covers no span: from the last key to it.
    const upTo: [string, string] | null =
      page.nextCursor === null
        ? null
        : last
          ? [last.openedAt as string, last.id as string]
          : (walk.after ?? [walk.from, '0']);
    const next: SessionWalk | undefined =
      upTo === null
        ? undefined
        : { from: walk.from, to: walk.to, cursor: page.nextCursor as string, after: upTo };
    await rows.replaceSessions(shop, walk, upTo, page.data, {
      key,
      value: next && JSON.stringify(next),
    });
    walk.after = upTo;
    written += page.data.length;
    o.emit({ type: 'page', resource: 'cash-drawer-sessions', records: page.data.length });
  }
  return written;
}
