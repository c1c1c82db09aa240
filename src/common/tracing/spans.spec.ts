import * as otel from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { recordedSpans } from '../testing/recorded-spans';
import { inSpan } from './spans';

describe(inSpan.name, () => {
  const exported = recordedSpans();
  const tracerWith = (sampler: 'on' | 'off'): otel.Tracer =>
    new NodeTracerProvider({
      sampler: sampler === 'on' ? new AlwaysOnSampler() : new AlwaysOffSampler(),
      spanProcessors: [new SimpleSpanProcessor(exported)],
    }).getTracer('request');

  /** Runs `work` inside a request span whose sampler records (on) or not (off). */
  const inRequest = <T>(sampler: 'on' | 'off', work: () => Promise<T>): Promise<T> =>
    tracerWith(sampler).startActiveSpan('GET /sales', async (span) => {
      try {
        return await work();
      } finally {
        span.end();
      }
    });

  it('should record a child span under a recording request span, with its attributes', async () => {
    const result = await inRequest('on', () =>
      inSpan('db.read', { 'pos_api.db.pool': 'primary' }, () => Promise.resolve(42)),
    );
    expect(result).toBe(42);
    const spans = exported.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['db.read', 'GET /sales']);
    expect(spans[0].attributes).toEqual({ 'pos_api.db.pool': 'primary' });
    expect(spans[0].parentSpanContext?.spanId).toBe(spans[1].spanContext().spanId);
  });

  it('should run the work in the request span itself, no child started, when not sampled', async () => {
    let request: otel.SpanContext | undefined;
    let inWork: otel.SpanContext | undefined;
    const result = await inRequest('off', () => {
      request = otel.trace.getActiveSpan()?.spanContext();
      return inSpan('db.read', {}, () => {
        inWork = otel.trace.getActiveSpan()?.spanContext();
        return Promise.resolve('rows');
      });
    });
    expect(result).toBe('rows');
    expect(exported.getFinishedSpans()).toEqual([]);
    // The request's own (unsampled) span: its trace id stays in the logs and problem bodies.
    expect(otel.isSpanContextValid(request!)).toBe(true);
    expect(inWork).toEqual(request);
  });

  it('should start a root span for work outside any request (no current span)', async () => {
    await inSpan('report.chunk', {}, () => Promise.resolve());
    const spans = exported.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.parentSpanContext])).toEqual([['report.chunk', undefined]]);
  });

  it('should end the span with the error class only when the work fails', async () => {
    const failure = Object.assign(new TypeError('SELECT ... secret'), {});
    await expect(
      inRequest('on', () => inSpan('db.read', {}, () => Promise.reject(failure))),
    ).rejects.toBe(failure);
    const [read] = exported.getFinishedSpans();
    expect(read.status).toEqual({ code: otel.SpanStatusCode.ERROR, message: 'TypeError' });
  });
});
