import { Logger } from '@nestjs/common';
import * as otel from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { enableSpans } from '../../common/tracing/spans';
import { DEFAULT_MANAGEMENT_PORT } from '../../config/limits';
import { DropWarning } from './drop-warning';
import { EmitterContextManager } from './emitter-context-manager';
import { statementForSpan } from './masked-statement';
import { ReadPoolProcessor } from './read-pools';
import { skipUnsampledQueries } from './recorded-queries';
import { RedactingSpanProcessor, WarningExporter } from './redacted-spans';
import { IncomingSampling, PresetTraceIds, samplerFromEnv } from './request-sampling';
import type { TracingSettings } from './tracing-settings';

/** The OTLP exporter of the protocol; it reads its endpoint, headers and timeout from OTEL_*. */
function otlpExporter(settings: TracingSettings): { exporter?: SpanExporter; problem?: string } {
  if (settings.problem) return { problem: settings.problem };
  try {
    const Exporter = settings.protocol === 'http/json' ? JsonExporter : ProtobufExporter;
    return { exporter: new Exporter() };
  } catch (error) {
    return { problem: `the OTLP exporter refused its configuration: ${String(error)}` };
  }
}

/**
 * Starts OpenTelemetry (only when tracing-settings says it is wanted; start-tracing.ts loads this
 * file then, before Nest, Fastify, mysql2 and ioredis, so their instrumentations patch them):
 * - the HTTP server instrumentation makes one server span per API request, renamed after its
 *   route template by the request hooks (operations/metrics/request-tracker.ts); the management
 *   port (health, metrics) is not traced, and outgoing HTTP is not instrumented (there is none);
 * - mysql2 spans with masked statements (`?` for every value, masked-statement.ts; an unsampled
 *   request's queries skip the instrumentation, recorded-queries.ts), a data route's read naming
 *   its pool on them (read-pools.ts), ioredis spans with the command name only, the service's
 *   own spans (common/tracing/spans.ts);
 * - W3C `traceparent` from a caller continues its trace only with TRACE_TRUST_INCOMING=true;
 *   otherwise no propagator is installed and every request starts a trace of its own;
 * - sampling from OTEL_TRACES_SAMPLER (default: every request), decided as each request arrives:
 *   a request not sampled passes no instrumentation, under a non-recording span of its trace id
 *   (request-sampling.ts); batching from OTEL_BSP_*;
 *   spans leave redacted (redacted-spans.ts), and a failed export drops them with a warning a
 *   minute at most.
 */
export function startTracing(settings: TracingSettings, env: NodeJS.ProcessEnv): void {
  // Exports run on timers born inside requests: the warning is logged from start-up's context,
  // so it carries no request's id or trace id.
  const outsideRequests = new AsyncResource('pos-api-tracing-warning');
  const warning = new DropWarning((message) =>
    outsideRequests.runInAsyncScope(() => new Logger('Tracing').warn(message)),
  );
  const { exporter, problem } = otlpExporter(settings);
  const managementPort = Number(env.MANAGEMENT_PORT || DEFAULT_MANAGEMENT_PORT);
  // One sampler and one id generator for the SDK and the decision taken before the HTTP
  // instrumentation (request-sampling.ts).
  const sampler = samplerFromEnv(env);
  const ids = new PresetTraceIds();
  const sampling = new IncomingSampling(
    sampler,
    ids,
    settings.trustIncoming,
    (request) => request.socket.localPort === managementPort,
  );
  const provider = new NodeTracerProvider({
    sampler,
    idGenerator: ids,
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || 'pos-read-api' }),
    ),
    spanProcessors: [
      // The pool of a read on its driver's span (decision 28.9), then the export.
      new ReadPoolProcessor(),
      new RedactingSpanProcessor(
        new BatchSpanProcessor(new WarningExporter(exporter, problem, warning)),
      ),
    ],
  });
  provider.register({
    propagator: settings.trustIncoming ? new W3CTraceContextPropagator() : null,
    // AsyncLocalStorage, with a cheaper binding of requests and responses to their context.
    contextManager: new EmitterContextManager().enable(),
  });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        disableOutgoingRequestInstrumentation: true,
        // The management port's requests (those the sampler drops never reach the instrumentation:
        // request-sampling.ts emits them past it).
        ignoreIncomingRequestHook: (request: IncomingMessage) => sampling.ignored(request),
        // The query (a cursor, a shop code, a token) is never recorded: `url.query` set to
        // nothing here (an undefined attribute is not kept) rather than cut off each span as it
        // ends; and none of its parameters to redact meanwhile (the default list is copied per
        // request).
        redactedQueryParamsServer: [],
        startIncomingSpanHook: () => ({ 'url.query': undefined }),
      }),
      new MySQL2Instrumentation({ maskStatement: true, maskStatementHook: statementForSpan }),
      new IORedisInstrumentation({ dbStatementSerializer: (command) => command }),
    ],
  });
  // http's server emit, as the instrumentation wrapped it: each request's sample decided first.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  sampling.install((require('node:http') as typeof import('node:http')).Server.prototype);
  // Loaded now, so that the instrumentation has patched it: its queries under an unsampled
  // request skip the instrumentation (recorded-queries.ts). The service loads it anyway.
  // Patched, its span of each query is the read's span, with the pool (decision 28.9); not
  // patched, the reads keep a `db.read` span of their own.
  const mysql2Spans =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    skipUnsampledQueries((require('mysql2') as typeof import('mysql2')).Connection) > 0;
  enableSpans(otel, { mysql2Spans });
}
