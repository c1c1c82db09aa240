import { currentDeadline, type Deadline } from './deadline';

/** The rows a request's statements returned: what an expensive read cost (decision 54.1). */
export interface ReadMeter {
  rows: number;
}

/** The meters of the requests that asked for one, by their deadline (one per API request). */
const meters = new WeakMap<Deadline, ReadMeter>();

/**
 * A meter for the request running now, or undefined outside a request's deadline. Every
 * statement the request runs afterwards, on any data source, adds its rows (database/deadline/
 * DeadlineSubscriber counts them).
 */
export function meterCurrentRequest(): ReadMeter | undefined {
  const deadline = currentDeadline();
  if (!deadline) return undefined;
  let meter = meters.get(deadline);
  if (!meter) {
    meter = { rows: 0 };
    meters.set(deadline, meter);
  }
  return meter;
}

/** The meter of the request running now, when it asked for one. */
export function currentMeter(): ReadMeter | undefined {
  const deadline = currentDeadline();
  return deadline && meters.get(deadline);
}
