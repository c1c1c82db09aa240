import * as otel from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { enableSpans, inRead } from '../../common/tracing/spans';
import { ReadPoolProcessor } from './read-pools';

/**
 * A read's pool on the driver's span (decision 28.9): `inRead` carries it, ReadPoolProcessor puts
 * it on the span the driver starts inside. `driverQuery` stands for mysql2's instrumented query:
 * a span started in the current context, ended when the rows come back.
 */
describe(ReadPoolProcessor.name, () => {
  const exported = new InMemorySpanExporter();
  const providerWith = (sampler: 'on' | 'off') =>
    new NodeTracerProvider({
      sampler: sampler === 'on' ? new AlwaysOnSampler() : new AlwaysOffSampler(),
      spanProcessors: [new ReadPoolProcessor(), new SimpleSpanProcessor(exported)],
    });
  // The driver's tracer: the SDK's default sampler, a child decided as its parent.
  const provider = new NodeTracerProvider({
    spanProcessors: [new ReadPoolProcessor(), new SimpleSpanProcessor(exported)],
  });
  beforeAll(() => provider.register({ propagator: null }));
  afterAll(async () => {
    await provider.shutdown();
    otel.trace.disable();
    otel.context.disable();
  });
  beforeEach(() => exported.reset());

  const driverQuery = (): Promise<string[]> => {
    const span = otel.trace.getTracer('mysql2').startSpan('SELECT', { kind: 2 });
    return Promise.resolve(['row']).finally(() => span.end());
  };
  const inRequest = <T>(sampler: 'on' | 'off', work: () => Promise<T>): Promise<T> =>
    providerWith(sampler)
      .getTracer('http')
      .startActiveSpan('GET /sales', async (span) => {
        try {
          return await work();
        } finally {
          span.end();
        }
      });
  const tree = () =>
    exported
      .getFinishedSpans()
      .map((s) => [s.name, s.attributes['pos_api.db.pool'], s.parentSpanContext?.spanId]);
  const idOf = (name: string) =>
    exported
      .getFinishedSpans()
      .find((s) => s.name === name)
      ?.spanContext().spanId;

  describe('with mysql2 instrumented', () => {
    beforeAll(() => enableSpans(otel, { mysql2Spans: true }));

    it("should put a MySQL read's pool on the driver's span, with no db.read span over it", async () => {
      expect(await inRequest('on', () => inRead('replica1', true, driverQuery))).toEqual(['row']);
      expect(tree()).toEqual([
        ['SELECT', 'replica1', idOf('GET /sales')],
        ['GET /sales', undefined, undefined],
      ]);
    });

    it('should give each read its own pool: a replica read, then the primary', async () => {
      await inRequest('on', async () => {
        await inRead('replica1', true, driverQuery);
        await inRead('primary', true, driverQuery);
      });
      expect(tree().map(([name, pool]) => [name, pool])).toEqual([
        ['SELECT', 'replica1'],
        ['SELECT', 'primary'],
        ['GET /sales', undefined],
      ]);
    });

    it('should keep a db.read span with the pool on SQLite (no driver span)', async () => {
      await inRequest('on', () => inRead('primary', false, () => Promise.resolve([])));
      expect(tree()).toEqual([
        ['db.read', 'primary', idOf('GET /sales')],
        ['GET /sales', undefined, undefined],
      ]);
    });

    it('should name no pool on spans started outside a read', async () => {
      await inRequest('on', driverQuery);
      expect(tree().map(([name, pool]) => [name, pool])).toEqual([
        ['SELECT', undefined],
        ['GET /sales', undefined],
      ]);
    });

    it('should record nothing under an unsampled request', async () => {
      expect(await inRequest('off', () => inRead('primary', true, driverQuery))).toEqual(['row']);
      expect(exported.getFinishedSpans()).toEqual([]);
    });
  });

  describe('with mysql2 not instrumented', () => {
    beforeAll(() => enableSpans(otel));

    it('should keep a db.read span for a MySQL read too', async () => {
      await inRequest('on', () => inRead('primary', true, driverQuery));
      expect(tree().map(([name, pool]) => [name, pool])).toEqual([
        ['SELECT', undefined],
        ['db.read', 'primary'],
        ['GET /sales', undefined],
      ]);
    });
  });
});
