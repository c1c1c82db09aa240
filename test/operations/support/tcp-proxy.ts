import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy of the tests' own between the app and MariaDB, to break the database on demand:
 * - cut():      the port refuses connections and every open connection is reset;
 * - freeze():   connections are accepted and kept, but nothing flows either way (a hung network);
 * - delay(ms):  every chunk, either way, is passed on `ms` later, in order (a slow database or
 *                network; delay(0) ends it for what arrives next);
 * - restore():  back to normal (after cut() the same port listens again).
 */
export class TcpProxy {
  private server: Server;
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  private delayMs = 0;
  private listeningPort = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = this.newServer();
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.listen(0);
    return proxy;
  }

  /**
   * A proxy in front of the server of a URL (mysql://, or redis:// with its default port), and
   * the URL that goes through it.
   */
  static async inFrontOf(
    serverUrl: string,
    defaultPort = 3306,
  ): Promise<{ proxy: TcpProxy; viaProxy: string }> {
    const direct = new URL(serverUrl);
    const proxy = await TcpProxy.start(direct.hostname, Number(direct.port || defaultPort));
    const viaProxy = new URL(direct.toString());
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    return { proxy, viaProxy: viaProxy.toString() };
  }

  get port(): number {
    return this.listeningPort;
  }

  cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  delay(ms: number): void {
    this.delayMs = ms;
  }

  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) socket.pause();
  }

  async restore(): Promise<void> {
    this.frozen = false;
    for (const socket of this.sockets) socket.resume();
    if (!this.server.listening) {
      this.server = this.newServer();
      await this.listen(this.listeningPort);
    }
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private newServer(): Server {
    return createServer((client) => this.accept(client));
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.listeningPort = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /**
   * What `from` sends, passed to `to` `delayMs` after it arrived, never before what came earlier
   * (a chunk that arrives after the delay was lowered waits for those queued before it).
   */
  private delayed(to: Socket): (step: () => void) => void {
    const queue: Array<{ at: number; step: () => void }> = [];
    let timer: NodeJS.Timeout | undefined;
    const pump = (): void => {
      timer = undefined;
      while (queue.length > 0) {
        const wait = queue[0].at - Date.now();
        if (wait > 0) {
          // Unreferenced: what is still queued when the test ends does not hold the process.
          timer = setTimeout(pump, wait).unref();
          return;
        }
        const next = queue.shift();
        if (!to.destroyed) next?.step();
      }
    };
    return (step) => {
      if (this.delayMs === 0 && queue.length === 0) {
        step();
        return;
      }
      queue.push({ at: Date.now() + this.delayMs, step });
      if (!timer) pump();
    };
  }

  private accept(client: Socket): void {
    const upstream = createConnection(this.targetPort, this.targetHost);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      const pass = this.delayed(to);
      from.on('data', (chunk: Buffer) => pass(() => to.write(chunk)));
      from.on('end', () => pass(() => to.end()));
      from.on('error', () => to.destroy());
      from.on('close', () => {
        to.destroy();
        this.sockets.delete(from);
      });
      if (this.frozen) from.pause();
    }
  }
}
