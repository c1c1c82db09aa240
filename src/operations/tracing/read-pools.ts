import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { poolOfRead } from '../../common/tracing/spans';

/**
 * Names the pool on the driver's span of a read (decision 28.9): a span started inside a read
 * of the data routes (common/tracing/spans.ts, `inRead`: mysql2's span of its query) gets
 * `pos_api.db.pool` (`primary`, `replica1`, ...) as it starts. Spans started elsewhere are left
 * as they are. Nothing is done as spans end.
 */
export class ReadPoolProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const pool = poolOfRead(parentContext);
    if (pool !== undefined) span.setAttribute('pos_api.db.pool', pool);
  }

  onEnd(_span: ReadableSpan): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
