import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { RedactingSpanProcessor } from './redacted-spans';

describe(RedactingSpanProcessor.name, () => {
  const handed: ReadableSpan[] = [];
  const next: SpanProcessor = {
    onStart: () => undefined,
    onEnd: (span) => void handed.push(span),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const processor = new RedactingSpanProcessor(next);
  const span = (fields: Partial<ReadableSpan>): ReadableSpan =>
    ({ name: 'GET /api/v1.0/sales', attributes: {}, events: [], ...fields }) as ReadableSpan;

  beforeEach(() => (handed.length = 0));

  it('should hand on a view without the query of URLs, url.query dropped, the rest kept', () => {
    const server = span({
      attributes: {
        'http.target': '/api/v1.0/sales?Cursor=c2VjcmV0&access_token=eyJ',
        'url.full': 'http://h/api/v1.0/sales?Cursor=c2VjcmV0',
        'url.query': 'Cursor=c2VjcmV0',
        'http.route': '/api/v1.0/sales',
        'http.response.status_code': 200,
      },
    });
    processor.onEnd(server);
    expect(handed[0].name).toBe('GET /api/v1.0/sales');
    expect(handed[0].attributes).toEqual({
      'http.target': '/api/v1.0/sales',
      'url.full': 'http://h/api/v1.0/sales',
      'http.route': '/api/v1.0/sales',
      'http.response.status_code': 200,
    });
    expect(server.attributes['url.query']).toBe('Cursor=c2VjcmV0'); // the ended span untouched
  });

  it('should keep only the exception type of events', () => {
    const event = {
      name: 'exception',
      time: [0, 0] as [number, number],
      attributes: { 'exception.type': 'QueryFailedError', 'exception.message': "WHERE x='v'" },
    };
    processor.onEnd(span({ name: 'db.read', events: [event] }));
    expect(handed[0].events).toEqual([
      { ...event, attributes: { 'exception.type': 'QueryFailedError' } },
    ]);
  });

  it('should hand on a span with nothing to redact as it is, without a copy', () => {
    const read = span({
      name: 'db.read',
      attributes: { 'pos_api.db.pool': 'primary', 'url.full': 'http://h/api/v1.0/shops' },
    });
    processor.onEnd(read);
    expect(handed[0]).toBe(read);
  });
});
