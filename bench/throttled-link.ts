import { connect, createServer, type Server, type Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

/** 50 Mbit/s in bytes per second: an integrator's link to the internet. */
export const LINK_BYTES_PER_SECOND = 50_000_000 / 8;

/**
 * The payload of one TCP segment on an Ethernet path (1500-byte MTU, less the IP and TCP headers
 * with timestamps): the unit in which a real link hands bytes to the receiver.
 */
const SEGMENT_BYTES = 1448;

/**
 * Lets bytes through at `bytesPerSecond`, segment by segment: each segment of a chunk leaves when
 * the link would have finished sending it (a token bucket without burst), so the first bytes of
 * an answer (its headers) arrive after their own time on the wire, not after the whole chunk's,
 * as on a real link. Segments that come due together leave together, as one write of the chunk's
 * bytes (timers have a millisecond's grain; a kernel would hand a reader what has arrived in one
 * read, so the receiver does not pay a read per segment), except a chunk's first segment, which
 * leaves on the event loop's first turn after its time: a timer would hold an answer's headers
 * about 1 ms past it (decision 29.17). None leaves before its time. The next chunk is taken only
 * once this one is out: the link's backpressure reaches the sender, as a slow link's does.
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
    // Segment i is bytes [i * SEGMENT_BYTES, (i + 1) * SEGMENT_BYTES) of the chunk; it is on the
    // wire at dueAt[i].
    const dueAt: number[] = [];
    let at = Math.max(performance.now(), this.bucket.freeAt);
    for (let offset = 0; offset < chunk.length; offset += SEGMENT_BYTES) {
      at += Math.min(SEGMENT_BYTES, chunk.length - offset) / this.bytesPerMs;
      dueAt.push(at);
    }
    this.bucket.freeAt = at;
    this.bucket.bytes += chunk.length;
    let next = 0;
    const release = (): void => {
      const now = performance.now();
      const from = next;
      while (next < dueAt.length && dueAt[next] <= now) next++;
      if (next > from) this.push(chunk.subarray(from * SEGMENT_BYTES, next * SEGMENT_BYTES));
      if (next === dueAt.length) return done();
      const wait = dueAt[next] - now;
      // A timer fires 1 ms late at the soonest, so a chunk's first segment due sooner (an
      // answer's headers: 0.07 ms on the wire) is looked for on each turn of the event loop
      // instead: never before its time, for under 1 ms, once a chunk.
      if (next === 0 && wait < 1) setImmediate(release);
      else setTimeout(release, wait);
    };
    release();
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
      // Segments go out as they come due: Nagle's algorithm would hold a small one back until
      // the last is acknowledged (a delayed ACK, 40 ms on Linux), which no link does.
      client.setNoDelay(true);
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
