import type { AfterQueryEvent } from 'typeorm';
import { QueryTimeoutSubscriber } from './query-timeout.subscriber';

describe(QueryTimeoutSubscriber.name, () => {
  const eventWith = (error: unknown, destroy: jest.Mock) =>
    ({
      error,
      queryRunner: { databaseConnection: { destroy } },
    }) as unknown as AfterQueryEvent<unknown>;

  it('should destroy the connection of a query that timed out', () => {
    const destroy = jest.fn();
    new QueryTimeoutSubscriber().afterQuery(
      eventWith({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' }, destroy),
    );
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('should leave the connection of any other query alone', () => {
    const destroy = jest.fn();
    const subscriber = new QueryTimeoutSubscriber();
    subscriber.afterQuery(eventWith(undefined, destroy));
    subscriber.afterQuery(eventWith({ code: 'ER_DUP_ENTRY' }, destroy));
    expect(destroy).not.toHaveBeenCalled();
  });
});
