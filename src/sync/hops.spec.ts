import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defineResource } from '../catalogue/resource';
import { col, defineSource } from '../catalogue/source';
import { CursorSecret } from '../common/cursor-secret';
import type { CallerClaims } from '../common/caller-claims';
import { callerClaims } from '../common/testing/caller.fixture';
import type { RawQuery } from '../common/query/query-parameters';
import type { Row } from '../database/sql-reader';
import { Wall } from '../wall/wall';
import { CursorCodec } from './paging/cursor-codec';
import { Paginator } from './paging/paginator';
import { resourceController } from './resource-controller';

/**
 * How many calls a request makes from its controller's method to the function that sends the
 * statement (docs/architecture.md, "A request's road", quotes these counts): the stack at the
 * statement, the service's own frames between the controller and the SQL. The connection's own
 * frames (ReadRouter, the driver) are not the service's road and are not counted: here a stub
 * database stands in for them.
 */
const ROOT = path.resolve(__dirname, '../..');
const SOURCE = defineSource({
  table: 'things',
  columns: { id: col.id, at: col.text },
  time: 'at',
  arrivedAt: 'created_at',
});
class Thing {
  id!: string;
  at!: string;
}
const THINGS = defineResource({
  route: 'things',
  tag: { name: 'Things', description: 'Things.' },
  source: SOURCE,
  record: Thing,
  example: { id: '1', at: '2026-03-01T10:00:00' },
  toRecord: (row: { id: string; at: string }) => ({ id: row.id, at: row.at }),
  datedBy: 'at',
  list: { summary: 'List things', description: 'Things.' },
  feed: { summary: 'Things as they came', description: 'Things.' },
  digest: {},
});

type Route = (caller: CallerClaims, query: RawQuery) => Promise<unknown>;

/** The frames of the service's files (below src/, not this spec) in a stack, innermost first. */
function serviceFrames(stack: string): string[] {
  return stack
    .split('\n')
    .map((line) => /\((\/[^:)]+):\d+:\d+\)$|at (\/[^:]+):\d+:\d+$/.exec(line.trim()))
    .map((match) => (match ? path.relative(ROOT, match[1] ?? match[2]) : ''))
    .filter((file) => file.startsWith('src/') && file !== 'src/sync/hops.spec.ts');
}

/** The calls from the controller's method to the first statement of a route, and their files. */
async function road(route: string, query: RawQuery): Promise<string[]> {
  const stacks: string[] = [];
  const db = {
    query: (): Promise<Row[]> => {
      stacks.push(new Error().stack ?? '');
      return Promise.resolve([]);
    },
  };
  const wall = new Wall({
    reader: () => db,
    withPrimary: (work) => work({ ...db, uncommitted: null }),
  });
  const pages = new Paginator(new CursorCodec(new CursorSecret(Buffer.from('s'.repeat(32)))), wall);
  const Controller = resourceController(THINGS) as new (pages: Paginator) => Record<string, Route>;
  await new Controller(pages)[route](callerClaims(), query);
  const frames = serviceFrames(stacks[0]);
  const controller = frames.indexOf('src/sync/resource-controller.ts');
  expect(controller).toBeGreaterThan(0);
  return frames.slice(0, controller).reverse();
}

describe('A request from its controller to SQL', () => {
  const period = { ShopCode: 'SHOP1', From: '2026-03-01', To: '2026-03-02' };
  const documented = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

  it('should reach SQL in at most 4 calls for a list page, one of them the wall', async () => {
    const calls = await road('list', period);
    expect(calls).toEqual([
      'src/sync/paging/paginator.ts',
      'src/wall/wall.ts',
      'src/wall/list-read.ts',
      'src/wall/sql/keyset-reader.ts',
    ]);
    expect(documented).toContain(`a list page reaches SQL in ${calls.length} calls`);
  });

  it('should reach SQL through the wall for a feed page, and the docs say in how many calls', async () => {
    const calls = await road('feed', { ShopCode: 'SHOP1' });
    expect(calls).toContain('src/wall/wall.ts');
    expect(calls[calls.length - 1]).toBe('src/wall/sql/arrival-reader.ts');
    expect(documented).toContain(`a feed page in ${calls.length}`);
  });

  it("should reach a digest's day through the wall, and the docs say in how many calls", async () => {
    const calls = await road('digest', period);
    expect(calls).toContain('src/wall/wall.ts');
    expect(calls[calls.length - 1]).toBe('src/wall/sql/day-reader.ts');
    expect(documented).toContain(`a digest's day in ${calls.length}`);
  });
});
