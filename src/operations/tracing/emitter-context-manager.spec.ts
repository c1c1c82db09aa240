import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { EventEmitter } from 'node:events';
import { EmitterContextManager } from './emitter-context-manager';

describe(EmitterContextManager.name, () => {
  const manager = new EmitterContextManager().enable();
  const key = createContextKey('request');
  const request = ROOT_CONTEXT.setValue(key, 'request 1');
  const seen = (): unknown => manager.active().getValue(key);
  afterAll(() => manager.disable());

  it("should run every listener of a bound emitter in the emitter's context, wherever it emits", async () => {
    const emitter = manager.bind(request, new EventEmitter());
    const values: unknown[] = [];
    emitter.on('data', () => values.push(seen()));
    emitter.once('end', () => values.push(seen()));
    // Emitted from elsewhere (as the HTTP parser emits the body's events): still the request's.
    manager.with(ROOT_CONTEXT.setValue(key, 'other'), () => emitter.emit('data'));
    await new Promise<void>((resolve) => setImmediate(resolve));
    emitter.emit('end');
    emitter.emit('end');
    expect(values).toEqual(['request 1', 'request 1']);
  });

  it("should run listeners added later, and Node's own, in the emitter's context when it emits from its own context", () => {
    const emitter = manager.bind(request, new EventEmitter());
    const values: unknown[] = [];
    manager.with(request, () => {
      emitter.on('finish', () => values.push(seen()));
      emitter.emit('finish');
    });
    emitter.emit('finish');
    expect(values).toEqual(['request 1', 'request 1']);
  });

  it('should emit an event nobody listens to, and throw an unheard error as an emitter does', () => {
    const emitter = manager.bind(request, new EventEmitter());
    expect(manager.with(ROOT_CONTEXT, () => emitter.emit('resume'))).toBe(false);
    expect(() => emitter.emit('error', new Error('boom'))).toThrow('boom');
  });

  it("should run an error's monitor in the emitter's context", () => {
    const emitter = manager.bind(request, new EventEmitter());
    const values: unknown[] = [];
    emitter.on(EventEmitter.errorMonitor, () => values.push(seen()));
    expect(() => manager.with(ROOT_CONTEXT, () => emitter.emit('error', new Error('x')))).toThrow(
      'x',
    );
    expect(values).toEqual(['request 1']);
  });

  it('should add and remove listeners untouched', () => {
    const emitter = manager.bind(request, new EventEmitter());
    const listener = (): void => undefined;
    emitter.on('close', listener);
    expect(emitter.listeners('close')).toEqual([listener]);
    emitter.off('close', listener);
    expect(emitter.listenerCount('close')).toBe(0);
    expect(emitter.emit('close')).toBe(false);
  });

  it('should bind functions as the stock manager does', () => {
    const bound = manager.bind(request, () => seen());
    expect(manager.with(ROOT_CONTEXT, bound)).toBe('request 1');
  });
});
