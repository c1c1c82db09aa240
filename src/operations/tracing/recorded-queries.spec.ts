import * as otel from '@opentelemetry/api';
import { AlwaysOffSampler, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { skipUnsampledQueries, underUnsampledSpan } from './recorded-queries';

/** A connection class whose `query` is wrapped the way the instrumentations wrap (shimmer). */
function instrumentedConnection(calls: string[]) {
  class BaseConnection {
    query(sql: string, ...rest: unknown[]): string {
      calls.push(`query ${sql} (${rest.length + 1} arguments)`);
      return `rows of ${sql}`;
    }
    ping(): string {
      return 'pong';
    }
  }
  class Connection extends BaseConnection {}
  const original = BaseConnection.prototype.query;
  const traced = function (this: BaseConnection, ...args: [string, ...unknown[]]): string {
    calls.push('span');
    return original.apply(this, args);
  };
  Object.defineProperty(traced, '__original', { value: original });
  Object.defineProperty(traced, '__unwrap', { value: () => undefined });
  Object.defineProperty(traced, '__wrapped', { value: true });
  BaseConnection.prototype.query = traced;
  return Connection;
}

describe(skipUnsampledQueries.name, () => {
  const provider = new NodeTracerProvider();
  const unsampled = new NodeTracerProvider({ sampler: new AlwaysOffSampler() });
  beforeAll(() => provider.register({ propagator: null }));
  afterAll(async () => {
    await provider.shutdown();
    otel.trace.disable();
    otel.context.disable();
  });

  it('should run the original query under an unsampled request, the instrumented one otherwise', () => {
    const calls: string[] = [];
    const Connection = instrumentedConnection(calls);
    expect(skipUnsampledQueries(Connection)).toBe(1);
    const connection = new Connection();
    unsampled.getTracer('t').startActiveSpan('GET /sales', (span) => {
      expect(underUnsampledSpan()).toBe(true);
      expect(connection.query('SELECT 1', [], () => undefined)).toBe('rows of SELECT 1');
      span.end();
    });
    provider.getTracer('t').startActiveSpan('GET /sales', (span) => {
      expect(underUnsampledSpan()).toBe(false);
      connection.query('SELECT 2');
      span.end();
    });
    // Outside any request: a root span of its own, which the sampler may record.
    expect(underUnsampledSpan()).toBe(false);
    connection.query('SELECT 3', [1]);
    expect(calls).toEqual([
      'query SELECT 1 (3 arguments)',
      'span',
      'query SELECT 2 (1 arguments)',
      'span',
      'query SELECT 3 (2 arguments)',
    ]);
  });

  it('should leave methods the instrumentation did not wrap as they are', () => {
    class Plain {
      query(): string {
        return 'rows';
      }
    }
    const query = Plain.prototype.query;
    expect(skipUnsampledQueries(Plain)).toBe(0);
    expect(Plain.prototype.query).toBe(query);
  });
});
