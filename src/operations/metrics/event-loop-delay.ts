import { Histogram, type Registry } from 'prom-client';

/** How often the loop is sampled: a timer due every SAMPLE_MS, observed by how late it fires. */
const SAMPLE_MS = 100;

/** Upper bounds in seconds: a healthy loop is under 10 ms; 100 ms and more is felt by clients. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * `pos_api_event_loop_delay_seconds`: a histogram of how late a timer due every 100 ms fires,
 * i.e. how long the event loop was busy before it could run it. prom-client's defaults give
 * `nodejs_eventloop_lag_p99_seconds` and friends (percentiles of this instance since start-up);
 * a histogram adds up across instances and over any window (`histogram_quantile`).
 */
export class EventLoopDelay {
  private readonly histogram: Histogram;
  private timer?: NodeJS.Timeout;

  constructor(registry: Registry) {
    this.histogram = new Histogram({
      name: 'pos_api_event_loop_delay_seconds',
      help: `How late a timer due every ${SAMPLE_MS} ms fired: time the event loop was busy elsewhere.`,
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  start(): void {
    if (this.timer) return;
    let due = performance.now() + SAMPLE_MS;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.histogram.observe(Math.max(0, now - due) / 1000);
      due = now + SAMPLE_MS;
    }, SAMPLE_MS);
    // Never keeps the process alive (a drain ends when the requests do).
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
