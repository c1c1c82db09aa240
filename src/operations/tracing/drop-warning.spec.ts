import { DropWarning } from './drop-warning';

describe(DropWarning.name, () => {
  it('should warn at once, then at most once a minute, counting the spans dropped meanwhile', () => {
    const warnings: string[] = [];
    let now = 1_000_000;
    const drops = new DropWarning(
      (m) => warnings.push(m),
      () => now,
    );
    drops.spansDropped(3, 'connect ECONNREFUSED 127.0.0.1:4318');
    for (let i = 0; i < 100; i++) {
      now += 500;
      drops.spansDropped(2, 'connect ECONNREFUSED 127.0.0.1:4318');
    }
    expect(warnings).toEqual([
      'Traces are not exported (3 spans dropped; the next warning in a minute at the earliest): connect ECONNREFUSED 127.0.0.1:4318',
    ]);
    now += 10_000; // 60 s after the first warning
    drops.spansDropped(1, 'timeout');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^Traces are not exported \(201 spans dropped;.*: timeout$/);
  });
});
