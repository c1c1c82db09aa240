import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { CursorSecret } from '../../common/cursor-secret';
import { callerClaims } from '../../common/testing/caller.fixture';
import { col, defineSource } from '../../catalogue/source';
import type { Wall } from '../../wall/wall';
import { CursorCodec } from '../paging/cursor-codec';
import { BulkReader } from './bulk-read';

const cursors = new CursorCodec(new CursorSecret(Buffer.from('a-cursor-secret-for-unit-specs')));
const CALLER = callerClaims({ shopCodes: ['S1'] });
const SOURCE = defineSource({ table: 'things', columns: { id: col.id, at: col.text }, time: 'at' });
const THINGS = {
  resource: 'things',
  source: SOURCE,
  toRecord: (row: { id: string }) => ({ id: row.id }),
  feed: true,
};
const QUERY = { ShopCode: 'S1', From: '2026-01-01', To: '2026-02-01' };
const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: String(from + i),
    at: '2026-01-02 10:00:00.000',
  }));

/** A wall whose reads answer `slices` in turn (an Error is thrown), and whose feed ends at 41. */
function wallOf(slices: Array<object | Error>): Wall {
  let read = 0;
  return {
    feedEnd: () => Promise.resolve('41'),
    read: () => {
      const slice = slices[read++];
      return slice instanceof Error ? Promise.reject(slice) : Promise.resolve(slice);
    },
  } as unknown as Wall;
}

async function linesOf(stream: Readable): Promise<Array<Record<string, unknown>>> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('BulkReader', () => {
  it('should end with the count and the SHA-256 of the record lines, checkpoints between chunks', async () => {
    const next = { time: '2026-01-02 10:00:00.000', id: '2' };
    const wall = wallOf([
      { rows: rows(1, 2), next, range: null },
      { rows: rows(3, 1), next: null, range: null },
    ]);
    const file = await new BulkReader(wall, cursors).open(THINGS, CALLER, QUERY, '/things/bulk');
    const lines = await linesOf(file.getStream());
    expect(lines.map((line) => line.type)).toEqual([
      'start',
      'record',
      'record',
      'checkpoint',
      'record',
      'end',
    ]);
    expect(cursors.decode(lines[0].feedCursor as string)).toMatchObject({
      resource: 'things/feed',
      afterId: '41',
    });
    expect(cursors.decode(lines[3].cursor as string)).toMatchObject({
      resource: 'things/bulk',
      afterId: '2',
    });
    const recordText = ['1', '2', '3']
      .map((id) => `{"type":"record","record":{"id":"${id}"}}\n`)
      .join('');
    expect(lines[5]).toEqual({
      type: 'end',
      count: 3,
      checksum: `sha256:${createHash('sha256').update(recordText).digest('hex')}`,
    });
  });

  it('should end a stream cut by the database with an error line naming the last checkpoint, and no SQL', async () => {
    const next = { time: '2026-01-02 10:00:00.000', id: '2' };
    const lost = Object.assign(
      new Error('connect ECONNREFUSED 127.0.0.1:3306 SELECT * FROM things'),
      {
        code: 'ECONNREFUSED',
      },
    );
    const wall = wallOf([{ rows: rows(1, 2), next, range: null }, lost]);
    const file = await new BulkReader(wall, cursors).open(THINGS, CALLER, QUERY, '/things/bulk');
    const lines = await linesOf(file.getStream());
    const last = lines[lines.length - 1];
    expect(last).toMatchObject({ type: 'error', status: 503, cursor: lines[3].cursor });
    expect(JSON.stringify(last)).not.toMatch(/SELECT|ECONNREFUSED|3306/);
    expect(lines.some((line) => line.type === 'end')).toBe(false);
  });

  it('should refuse its query before streaming anything', async () => {
    const wall = wallOf([]);
    await expect(
      new BulkReader(wall, cursors).open(THINGS, CALLER, { ShopCode: 'S1' }, '/things/bulk'),
    ).rejects.toMatchObject({ status: 400 });
  });
});
