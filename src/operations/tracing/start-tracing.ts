/**
 * Imported first by main.ts: starts OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT (or another
 * standard OTEL_* variable, tracing-settings.ts) asks for it, before anything else is loaded.
 * Otherwise the SDK is not even loaded: tracing off costs nothing.
 */
import { tracingSettings } from './tracing-settings';

const settings = tracingSettings(process.env);
if (settings.enabled) {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
    sdk.startTracing(settings, process.env);
  } catch (error) {
    // Tracing never stops the service.
    process.stderr.write(`Tracing is off: it could not start (${String(error)})\n`);
  }
}
