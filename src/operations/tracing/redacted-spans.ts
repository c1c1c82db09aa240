import type { Context } from '@opentelemetry/api';
import type {
  ReadableSpan,
  Span,
  SpanExporter,
  SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { DropWarning } from './drop-warning';

type Attributes = ReadableSpan['attributes'];

/** Attributes holding a URL: exported without the query (a cursor, a shop code, a token). */
const URL_ATTRIBUTES = new Set(['http.target', 'http.url', 'url.full', 'url.original']);
/** Never exported: the query string itself. */
const DROPPED_ATTRIBUTES = new Set(['url.query']);

function withoutQuery(value: unknown): unknown {
  return typeof value === 'string' ? value.split('?')[0] : value;
}

function redacted(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (DROPPED_ATTRIBUTES.has(key)) continue;
    out[key] = URL_ATTRIBUTES.has(key) ? (withoutQuery(value) as typeof value) : value;
  }
  return out;
}

/** Whether the span holds anything redactedView would change (most spans: nothing). */
function needsRedaction(span: ReadableSpan): boolean {
  if (span.events.length > 0) return true;
  for (const key in span.attributes) {
    if (DROPPED_ATTRIBUTES.has(key)) return true;
    const value = span.attributes[key];
    if (URL_ATTRIBUTES.has(key) && typeof value === 'string' && value.includes('?')) return true;
  }
  return false;
}

/** The span as exported: URLs without their query; events keep their name and exception type. */
function redactedView(span: ReadableSpan): ReadableSpan {
  const events = span.events.map((event) => ({
    ...event,
    attributes:
      event.attributes?.['exception.type'] !== undefined
        ? { 'exception.type': event.attributes['exception.type'] }
        : undefined,
  }));
  // A plain copy of its fields, two replaced. Not Object.create(span): every server span made a
  // prototype cost more than the copy (paired runs, docs/performance.md "Tracing").
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: redacted(span.attributes),
    links: span.links,
    events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/**
 * In front of the batch processor: every span leaves redacted. The instrumentations are
 * configured not to record values (mysql2's masked statements, ioredis's command names only);
 * this is the second line, for the URL the HTTP instrumentation records with its query.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    // The reads' spans (ids, counts, masked statements) leave as they are: no copy to make.
    this.next.onEnd(needsRedaction(span) ? redactedView(span) : span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

/**
 * The OTLP exporter, or none when the configuration is malformed: a failed export (collector
 * unreachable, refusing, too slow) or no exporter at all drops the batch and warns once a minute.
 * The batch processor exports off the request path, so requests never wait for the collector.
 */
export class WarningExporter implements SpanExporter {
  constructor(
    private readonly exporter: SpanExporter | undefined,
    private readonly problem: string | undefined,
    private readonly warning: DropWarning,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (!this.exporter) {
      this.warning.spansDropped(spans.length, this.problem ?? 'no exporter');
      done({ code: ExportResultCode.FAILED });
      return;
    }
    this.exporter.export(spans, (result) => {
      // Numbers: the exporter's copy of @opentelemetry/core may not be this file's.
      if (Number(result.code) !== Number(ExportResultCode.SUCCESS)) {
        const reason = result.error?.message || 'the collector did not accept them';
        this.warning.spansDropped(spans.length, reason.slice(0, 300));
      }
      done(result);
    });
  }

  async shutdown(): Promise<void> {
    await this.exporter?.shutdown();
  }

  async forceFlush(): Promise<void> {
    await this.exporter?.forceFlush?.();
  }
}
