import * as otel from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { enableSpans } from '../tracing/spans';

/**
 * Specs only: turns the service's spans on for the enclosing `describe` (a registered provider,
 * as operations/tracing does), recording every finished span in memory, emptied before each test;
 * turned off again after it.
 */
export function recordedSpans(): InMemorySpanExporter {
  const exported = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exported)] });
  beforeAll(() => {
    provider.register({ propagator: null });
    enableSpans(otel);
  });
  afterAll(async () => {
    await provider.shutdown();
    otel.trace.disable();
    otel.context.disable();
  });
  beforeEach(() => exported.reset());
  return exported;
}
