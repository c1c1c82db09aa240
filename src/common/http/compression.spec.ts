import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { chooseEncoding, encodedStream } from './compression';

describe('chooseEncoding', () => {
  const offered: Array<'br' | 'gzip' | 'identity'> = ['br', 'gzip', 'identity'];

  it('should take the highest q-value the service speaks', () => {
    expect(chooseEncoding('gzip;q=1, br;q=0.5', offered)).toBe('gzip');
    expect(chooseEncoding('gzip;q=0.5, br;q=0.9', offered)).toBe('br');
    expect(chooseEncoding('deflate, gzip;q=0.2', offered)).toBe('gzip');
  });

  it("should prefer the service's order at equal q-values", () => {
    expect(chooseEncoding('gzip, br', offered)).toBe('br');
    expect(chooseEncoding('*', offered)).toBe('br');
  });

  it('should never choose an encoding the client refuses with q=0', () => {
    expect(chooseEncoding('br;q=0, gzip', offered)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0', offered)).toBeNull();
  });

  it('should answer identity (null) when nothing acceptable is spoken, or nothing is asked', () => {
    for (const header of [undefined, '', 'identity', 'compress', 'zstd', 'identity;q=0']) {
      expect(chooseEncoding(header, offered)).toBeNull();
    }
  });
});

describe('encodedStream', () => {
  /** A source of `pieces` pieces of 64 KiB that counts how many were read. */
  function countingSource(pieces: number): { stream: Readable; read: () => number } {
    let read = 0;
    const stream = new Readable({
      read() {
        if (read === pieces) return void this.push(null);
        // Hardly compressible text, so the encoder's output fills its buffers as the input would.
        this.push(
          Buffer.from(Array.from({ length: 1024 }, () => Math.random().toString(36)).join('')),
        );
        read++;
      },
    });
    return { stream, read: () => read };
  }

  /**
   * The count once it has stopped moving for `quietMs` (a busy machine's encoder may take its
   * time to fill its buffers: the spec waits for the stall, not for a fixed time), or after 10 s.
   */
  async function whenStill(count: () => number, quietMs = 500): Promise<number> {
    const deadline = Date.now() + 10_000;
    let last = count();
    let since = Date.now();
    while (Date.now() < deadline && Date.now() - since < quietMs) {
      await sleep(25);
      if (count() !== last) [last, since] = [count(), Date.now()];
    }
    return last;
  }

  it('should stop reading its source while nobody reads the encoded output (backpressure)', async () => {
    const source = countingSource(400);
    const encoded = encodedStream(source.stream, 'gzip');
    const stalledAt = await whenStill(source.read);
    await sleep(200);
    expect(source.read()).toBe(stalledAt);
    expect(stalledAt).toBeLessThan(40);
    encoded.destroy();
  });

  it('should decode to exactly what the source gave once it is read', async () => {
    const text = 'a report row, '.repeat(50_000);
    const chunks: Buffer[] = [];
    for await (const chunk of encodedStream(
      Readable.from([text.slice(0, 1000), text.slice(1000)]),
      'gzip',
    )) {
      chunks.push(chunk as Buffer);
    }
    expect(gunzipSync(Buffer.concat(chunks)).toString()).toBe(text);
  });
});
