import { tracingSettings } from './tracing-settings';

describe(tracingSettings.name, () => {
  it('should be off without an endpoint, and when disabled', () => {
    expect(tracingSettings({}).enabled).toBe(false);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).enabled).toBe(false);
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(false);
  });

  it('should be on with either endpoint variable, or OTEL_TRACES_EXPORTER=otlp', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
      problem: undefined,
      trustIncoming: false,
    });
    const traces = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/v1/traces' };
    expect(tracingSettings(traces).enabled).toBe(true);
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' }).enabled).toBe(true);
  });

  it('should pick the protocol, the traces-specific variable first', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(tracingSettings({ ...env, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).protocol).toBe(
      'http/json',
    );
    expect(
      tracingSettings({
        ...env,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }).protocol,
    ).toBe('http/protobuf');
  });

  it('should name malformed values as a problem instead of failing', () => {
    const settings = tracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(settings.enabled).toBe(true);
    expect(settings.problem).toBe(
      'OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL; OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not http/protobuf or http/json (grpc is not supported)',
    );
  });

  it('should trust an incoming traceparent only with TRACE_TRUST_INCOMING=true', () => {
    expect(tracingSettings({}).trustIncoming).toBe(false);
    expect(tracingSettings({ TRACE_TRUST_INCOMING: 'false' }).trustIncoming).toBe(false);
    expect(tracingSettings({ TRACE_TRUST_INCOMING: 'true' }).trustIncoming).toBe(true);
  });
});
