import { ManagementServer } from '../../../src/operations/management.server';
import { startTestApp, TestApp } from '../../support/test-app';
import { TestDatabase } from '../../support/test-database';

export interface OpsApp extends TestApp {
  /** http://127.0.0.1:<management port> */
  managementUrl: string;
}

/** The real app plus its management server, both on free ports, as main.ts starts them. */
export async function startOpsApp(
  database: TestDatabase,
  env: Record<string, string> = {},
): Promise<OpsApp> {
  const api = await startTestApp(database, env);
  const port = await api.app.get(ManagementServer).listen(0, '127.0.0.1');
  return { ...api, managementUrl: `http://127.0.0.1:${port}` };
}

/** The value of one sample of a Prometheus text exposition (0 when absent). */
export function sample(
  exposition: string,
  name: string,
  labels: Record<string, string> = {},
): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2] ? match[2].split(/,(?=[a-zA-Z_]\w*=")/) : [];
    if (wanted.every((w) => have.includes(w))) return Number(match[3]);
  }
  return 0;
}
