import { Logger } from '@nestjs/common';
import { createServer, type Server } from 'node:net';
import { QueryCanceller } from './query-canceller';

describe(QueryCanceller.name, () => {
  let server: Server;
  let port = 0;

  /** A server that accepts connections and never answers: a database that does not respond. */
  beforeAll(async () => {
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => jest.restoreAllMocks());

  it('should log once, and not throw, when the cancellations cannot be sent', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const canceller = new QueryCanceller(`mysql://api@127.0.0.1:${port}/backoffice`, 200);
    expect(() => {
      canceller.cancel(41);
      canceller.cancel(42);
    }).not.toThrow();
    for (let waited = 0; warn.mock.calls.length === 0 && waited < 3_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/could not be cancelled \(ETIMEDOUT\)/);
  });

  it('should open no connection for a connection without a thread id', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    // Nothing listens on port 1: a connection attempt would be refused and logged.
    const canceller = new QueryCanceller('mysql://api@127.0.0.1:1/backoffice', 200);
    canceller.cancel(Number.NaN);
    canceller.cancel(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warn).not.toHaveBeenCalled();
    canceller.cancel(7);
    for (let waited = 0; warn.mock.calls.length === 0 && waited < 3_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/ECONNREFUSED/);
  });
});
