import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReadinessService } from './health/readiness.service';
import { MetricsService } from './metrics/metrics.service';

type Route = () => Promise<{ status: number; contentType: string; body: string }>;

/**
 * The management port (MANAGEMENT_PORT, 9464 by default): /health/live, /health/ready and
 * /metrics, on a listener of its own so none of it is reachable through the public API port.
 * Plain node:http: three GET routes need no framework, no auth, no request log.
 */
@Injectable()
export class ManagementServer implements OnApplicationShutdown {
  private readonly logger = new Logger('Management');
  private server?: Server;
  private readonly routes: Record<string, Route>;

  constructor(readiness: ReadinessService, metrics: MetricsService) {
    const json = (answer: { status: number; body: unknown }) => ({
      status: answer.status,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(answer.body),
    });
    this.routes = {
      '/health/live': async () => json(await readiness.live()),
      '/health/ready': async () => {
        const answer = await readiness.ready();
        metrics.readinessAnswered(answer.status === 200);
        return json(answer);
      },
      '/metrics': async () => ({ status: 200, ...(await metrics.scrape()) }),
    };
  }

  /** Starts listening; returns the port (useful with port 0). */
  async listen(port: number, host: string): Promise<number> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 5_000;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return this.port as number;
  }

  get port(): number | undefined {
    const address = this.server?.address() as AddressInfo | null | undefined;
    return address?.port;
  }

  /** Closed last, after the API has drained, so probes keep answering during the drain. */
  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const route = this.routes[path];
    try {
      if (!route) return send(res, 404, 'application/json', '{"status":"not found"}');
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        return send(res, 405, 'application/json', '{"status":"method not allowed"}');
      }
      const answer = await route();
      send(res, answer.status, answer.contentType, req.method === 'HEAD' ? '' : answer.body);
    } catch (error) {
      this.logger.error({ err: error, path }, 'Management request failed');
      send(res, 500, 'application/json', '{"status":"error"}');
    }
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}
