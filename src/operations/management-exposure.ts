import type { AppConfig } from '../config/app-config';

const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '']);

/**
 * The start-up warning of a production instance whose management port (health, readiness,
 * unauthenticated metrics) listens on every interface, as the container image sets it: a
 * container's probes reach it on the pod's address, so the network must keep it private
 * (docs/operations.md, "The management port"; decision 44.6). Undefined when nothing needs saying.
 */
export function managementExposureWarning(config: AppConfig, port: number): string | undefined {
  if (!config.isProduction || !EVERY_INTERFACE.has(config.MANAGEMENT_HOST)) return undefined;
  return (
    `The management port ${port} (health, metrics, no authentication) listens on every ` +
    `interface (MANAGEMENT_HOST=${config.MANAGEMENT_HOST || '0.0.0.0'}): keep it off the public ` +
    `network with a NetworkPolicy or firewall rule, or set MANAGEMENT_HOST to a private address.`
  );
}
