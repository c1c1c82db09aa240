import { type AfterQueryEvent, type EntitySubscriberInterface, EventSubscriber } from 'typeorm';

interface Destroyable {
  destroy?(): void;
}

/**
 * mysql2's per-query timeout (DATABASE_QUERY_TIMEOUT_MS) answers the caller with
 * PROTOCOL_SEQUENCE_TIMEOUT but leaves the query running on its connection, which then goes back
 * to the pool: the next query queued behind it would wait forever. The connection is destroyed
 * instead, before it is released; the pool opens a fresh one when needed.
 */
@EventSubscriber()
export class QueryTimeoutSubscriber implements EntitySubscriberInterface {
  afterQuery(event: AfterQueryEvent<unknown>): void {
    const code = (event.error as { code?: unknown } | undefined)?.code;
    if (code !== 'PROTOCOL_SEQUENCE_TIMEOUT') return;
    const runner = event.queryRunner as unknown as { databaseConnection?: Destroyable };
    runner.databaseConnection?.destroy?.();
  }
}
