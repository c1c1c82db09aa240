import { Registry } from 'prom-client';
import { EventLoopDelay } from './event-loop-delay';

const busy = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* holding the loop, as a CPU-bound request would */
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(EventLoopDelay.name, () => {
  it('should count a loop held for 300 ms in the buckets above 250 ms, and nothing before start', async () => {
    const registry = new Registry();
    const delay = new EventLoopDelay(registry);
    const count = async (le: string) => {
      const text = await registry.metrics();
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`pos_api_event_loop_delay_seconds_bucket{le="${le}"}`));
      return Number(line?.split(' ')[1]);
    };
    expect(await count('+Inf')).toBe(0);
    delay.start();
    try {
      await sleep(150);
      busy(300);
      await sleep(150);
    } finally {
      delay.stop();
    }
    const all = await count('+Inf');
    expect(all).toBeGreaterThanOrEqual(2);
    // The held loop: one sample at least 200 ms late (300 ms busy, the timer due within it).
    expect(all - (await count('0.1'))).toBeGreaterThanOrEqual(1);
  });
});
