import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as OTLP/JSON carries it, attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, string | number | boolean>;
  /** Everything the span carried (events, status, resource, ...) as JSON, for secret checks. */
  raw: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
interface OtlpRequest {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

const plain = (v: OtlpValue): string | number | boolean =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? ''));

/**
 * A small OTLP/HTTP collector for the specs: POST /v1/traces, OTLP/JSON decoded into spans,
 * OTLP/protobuf bodies kept as they came (their content type and size are what a spec checks).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly requests: Array<{ path: string; contentType: string; bytes: number }> = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const contentType = String(req.headers['content-type'] ?? '');
        this.requests.push({ path: req.url ?? '', contentType, bytes: body.length });
        if (contentType.startsWith('application/json')) this.take(JSON.parse(body.toString()));
        res.writeHead(200, { 'Content-Type': contentType || 'application/json' });
        res.end(contentType.startsWith('application/json') ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Waits until `done(spans)` holds (spans come in batches, a little after the requests). */
  async until(done: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.spans)) {
      if (Date.now() > deadline) {
        throw new Error(`spans not received in time: ${this.spans.map((s) => s.name).join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private take(request: OtlpRequest): void {
    for (const resource of request.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            attributes: Object.fromEntries(
              (span.attributes ?? []).map((a) => [a.key, plain(a.value)]),
            ),
            raw: JSON.stringify({ resource, span }),
          });
        }
      }
    }
  }
}
