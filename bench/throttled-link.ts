import { connect, createServer, type Server, type Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

/** 50 Mbit/s in bytes per second: an integrator's link to the internet. */
export const LINK_BYTES_PER_SECOND = 50_000_000 / 8;

/**
 * Lets bytes through at `bytesPerSecond`: each chunk leaves when the link would have finished
 * sending it (a token bucket without burst). Its own backpressure reaches the sender, as a slow
 * link's does.
 */
class RateLimit extends Transform {
  constructor(
    private readonly bytesPerMs: number,
    /** Shared by every connection of the link: one link, whatever the connections over it. */
    private readonly bucket: { freeAt: number; bytes: number },
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const now = performance.now();
    this.bucket.freeAt = Math.max(now, this.bucket.freeAt) + chunk.length / this.bytesPerMs;
    this.bucket.bytes += chunk.length;
    setTimeout(() => done(null, chunk), Math.max(0, this.bucket.freeAt - now));
  }
}

/**
 * A TCP proxy in the bench process between a client and the service, whose downstream direction
 * (service to client) is limited to a link's rate: the simulated 50 Mbit/s link of the
 * compression scenario, without a network namespace. Requests go up unthrottled (they are tiny).
 * Several connections share the one rate, as they would share one link.
 */
export class ThrottledLink {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly sockets: Set<Socket>,
    private readonly bucket: { freeAt: number; bytes: number },
  ) {}

  /** Bytes sent towards the client so far (headers and bodies, as on the wire). */
  get bytesDown(): number {
    return this.bucket.bytes;
  }

  static start(target: URL, bytesPerSecond = LINK_BYTES_PER_SECOND): Promise<ThrottledLink> {
    const sockets = new Set<Socket>();
    const bucket = { freeAt: 0, bytes: 0 };
    const server = createServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => [client, upstream].forEach((s) => s.destroy()));
      }
      client.pipe(upstream);
      upstream.pipe(new RateLimit(bytesPerSecond / 1000, bucket)).pipe(client);
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (!address || typeof address === 'string') return reject(new Error('no port'));
        resolve(new ThrottledLink(server, address.port, sockets, bucket));
      });
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
