/** What the environment asks of tracing, read before anything else loads (start-tracing.ts). */
export interface TracingSettings {
  /** An OTLP endpoint is set (or OTEL_TRACES_EXPORTER=otlp) and OTEL_SDK_DISABLED is not true. */
  enabled: boolean;
  /** The OTLP encoding: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL. */
  protocol: 'http/protobuf' | 'http/json';
  /** Why no span can be exported (a malformed OTEL_* value): spans are dropped, with a warning. */
  problem?: string;
  /** TRACE_TRUST_INCOMING: continue a caller's W3C traceparent instead of starting a new trace. */
  trustIncoming: boolean;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

const set = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== '';

/** The same spellings as AppConfig's booleans (config/env-decorators.ts). */
const isTrue = (value: string | undefined): boolean =>
  ['1', 'true', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());

function badEndpoint(value: string | undefined): string | undefined {
  if (!set(value)) return undefined;
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {
    /* reported below */
  }
  return 'is not an http(s) URL';
}

/**
 * Off unless an OTLP endpoint is set: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_TRACES_EXPORTER=otlp for the default localhost:4318).
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turns it off. A malformed value does not
 * stop the service: it is a `problem`, and the spans are dropped with a warning a minute.
 */
export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  const exporter = (env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase();
  const endpoints = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'];
  const enabled =
    !isTrue(env.OTEL_SDK_DISABLED) &&
    exporter !== 'none' &&
    (endpoints.some((name) => set(env[name])) || exporter === 'otlp');
  const wanted = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
    env.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf'
  ).trim();
  const protocol = PROTOCOLS.find((p) => p === wanted);
  const problems = endpoints
    .map((name) => [name, badEndpoint(env[name])])
    .filter(([, why]) => why !== undefined)
    .map(([name, why]) => `${name} ${why}`);
  if (!protocol) {
    problems.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL "${wanted.slice(0, 40)}" is not http/protobuf or http/json (grpc is not supported)`,
    );
  }
  if (exporter !== '' && exporter !== 'otlp' && exporter !== 'none') {
    problems.push(`OTEL_TRACES_EXPORTER "${exporter.slice(0, 40)}" is not otlp or none`);
  }
  return {
    enabled,
    protocol: protocol ?? 'http/protobuf',
    problem: problems.length > 0 ? problems.join('; ') : undefined,
    trustIncoming: isTrue(env.TRACE_TRUST_INCOMING),
  };
}
