import { connect, Socket } from 'node:net';
import { get as httpGet } from 'node:http';

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 connection the test drives by hand, to send a request on a connection that is
 * already busy (pipelined), as a kept-alive client does when it reuses a connection.
 */
export class RawConnection {
  private received = Buffer.alloc(0);
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes a GET request; the connection stays open for the next one. */
  get(path: string, headers: Record<string, string> = {}): void {
    const lines = [`GET ${path} HTTP/1.1`, 'Host: localhost', 'Connection: keep-alive'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  }

  /** Every response received until the server closed the connection (Content-Length bodies). */
  async responsesUntilClosed(): Promise<RawResponse[]> {
    await this.closed;
    const responses: RawResponse[] = [];
    let rest = this.received;
    while (rest.length > 0) {
      const end = rest.indexOf('\r\n\r\n');
      if (end === -1) throw new Error(`incomplete response head: ${rest.toString()}`);
      const [statusLine, ...headerLines] = rest.subarray(0, end).toString().split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (headers['transfer-encoding']) throw new Error('chunked responses are not supported');
      const length = Number(headers['content-length'] ?? 0);
      const body = rest.subarray(end + 4, end + 4 + length).toString();
      responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
      rest = rest.subarray(end + 4 + length);
    }
    return responses;
  }
}

export interface UnreadResponse {
  status: number;
  /** Reads the rest of the body now, at full speed. */
  readAll(): Promise<string>;
}

/**
 * A GET whose body the client does not read until told to: a slow client. Once the socket
 * buffers are full, the server can write no more (backpressure) and the response stays in flight.
 */
export function getWithoutReading(
  url: string,
  headers: Record<string, string>,
): Promise<UnreadResponse> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers, agent: false }, (response) => {
      // An IncomingMessage without a 'data' listener stays paused: nothing is read.
      resolve({
        status: response.statusCode ?? 0,
        readAll: async () => {
          const chunks: Buffer[] = [];
          for await (const chunk of response) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks).toString('utf8');
        },
      });
    });
    request.once('error', reject);
  });
}

/**
 * Sends raw bytes and returns everything the server wrote before closing the connection;
 * rejects when it has not closed it within `timeoutMs`.
 */
export function rawExchange(baseUrl: string, bytes: string, timeoutMs = 5_000): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => undefined);
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    });
  });
}
