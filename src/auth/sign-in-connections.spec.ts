import { SignInConnections } from './sign-in-connections';

/** A statement that runs until `finish` is called (or `fail`). */
function pending() {
  let finish: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve('done');
    fail = reject;
  });
  return { statement: () => done, finish, fail };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe(SignInConnections.name, () => {
  it('should run at most its share of statements at once, the others in arrival order', async () => {
    const connections = new SignInConnections(2);
    const started: number[] = [];
    const statements = [0, 1, 2, 3].map(() => pending());
    const runs = statements.map((s, i) =>
      connections.run(() => {
        started.push(i);
        return s.statement();
      }),
    );
    await turn();
    expect(started).toEqual([0, 1]);
    expect(connections.stats()).toEqual({ held: 2, waiting: 2, peak: 2 });
    statements[1].finish();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    expect(connections.stats()).toEqual({ held: 2, waiting: 1, peak: 2 });
    statements[0].finish();
    statements[2].finish();
    statements[3].finish();
    await expect(Promise.all(runs)).resolves.toEqual(['done', 'done', 'done', 'done']);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(connections.stats()).toEqual({ held: 0, waiting: 0, peak: 2 });
  });

  it('should give the place back when a statement fails, and pass the error on', async () => {
    const connections = new SignInConnections(1);
    const failing = pending();
    const first = connections.run(failing.statement);
    const second = connections.run(() => Promise.resolve('next'));
    await turn();
    expect(connections.stats()).toEqual({ held: 1, waiting: 1, peak: 1 });
    failing.fail(new Error('Lock wait timeout'));
    await expect(first).rejects.toThrow('Lock wait timeout');
    await expect(second).resolves.toBe('next');
    expect(connections.stats()).toEqual({ held: 0, waiting: 0, peak: 1 });
  });

  it('should take a quarter of the pool, at least one connection', () => {
    expect(SignInConnections.ofPool(10).share).toBe(2);
    expect(SignInConnections.ofPool(40).share).toBe(10);
    expect(SignInConnections.ofPool(7).share).toBe(1);
    expect(SignInConnections.ofPool(1).share).toBe(1);
  });

  it('should refuse a share of no connection or of a fraction', () => {
    expect(() => new SignInConnections(0)).toThrow(new RangeError('share must be ≥ 1: 0'));
    expect(() => new SignInConnections(1.5)).toThrow(RangeError);
    expect(new SignInConnections(1).share).toBe(1);
  });
});
