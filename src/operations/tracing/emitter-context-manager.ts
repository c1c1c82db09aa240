import type { Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { EventEmitter } from 'node:events';

/**
 * OpenTelemetry's AsyncLocalStorage context manager, except how an event emitter is bound to a
 * context. The HTTP instrumentation binds every request and response (`context.bind`), so that
 * their listeners (the body's `data`/`end`, on which Fastify calls the handler; `finish`, on
 * which the request's log line is written) run in the request's context. The stock binding
 * replaces six listener methods on each emitter and wraps every listener added later, with a
 * map per event: measured, the largest part of what tracing cost a request that was not
 * sampled, most of it in garbage collection (docs/performance.md). This one wraps the emitter's
 * `emit` once, so that every event of that emitter runs in the context, whoever added the
 * listener and when (Node's own `finish` listener on the response, added before the request is
 * emitted, now runs in it too: it starts nothing). Listeners are added and removed untouched.
 * Functions are bound as before.
 */
export class EmitterContextManager extends AsyncLocalStorageContextManager {
  override bind<T>(context: Context, target: T): T {
    if (!(target instanceof EventEmitter)) return super.bind(context, target);
    const emit = target.emit;
    const emitIn = (self: EventEmitter, args: Parameters<EventEmitter['emit']>): boolean => {
      // Entering the context costs an AsyncLocalStorage run (a new frame, later collected):
      // skipped when nothing would see it, the emit already in that very context (most of a
      // response's events, emitted by the handler's own end()) or no listener for the event
      // ('error' excepted: its errorMonitor listeners are not counted). Seven runs a request
      // before, most of them one of these (docs/performance.md, "Tracing", fourth pass).
      const [event] = args;
      if (this.active() === context || (event !== 'error' && self.listenerCount(event) === 0)) {
        return emit.apply(self, args);
      }
      return this.with(context, emit, self, ...args);
    };
    target.emit = function (this: EventEmitter, ...args: Parameters<EventEmitter['emit']>) {
      return emitIn(this, args);
    };
    return target;
  }
}
