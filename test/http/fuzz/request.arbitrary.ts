import fc from 'fast-check';
import { FuzzOperation, ParameterSchema } from './openapi-operations';

/** One request the fuzz test sends. */
export interface FuzzRequest {
  method: string;
  /** Path and query string. */
  url: string;
  /** An array value is sent as that many header lines. */
  headers: Record<string, string | string[]>;
  body?: string;
  /**
   * Whether the request carries exactly one `Authorization: Bearer <token of the pool>` line: on
   * a data route, any other request must be refused 401 before anything else is looked at.
   */
  oneValidBearer: boolean;
}

/** Header values fetch can send: Latin-1 without control characters. */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f && (c < 0x80 || c > 0x9f))
    .map((c) => String.fromCharCode(c)),
  maxLength: 80,
});
const unicode = fc.string({ unit: 'grapheme', maxLength: 30 });
const huge = fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'x'.repeat(n));
const oddText = fc.oneof(
  fc.string({ maxLength: 30 }),
  unicode,
  huge,
  fc.constantFrom('', ' ', '%', '0', '-1', '1e3', '501', '0x10', 'null', '[]', "' OR 1=1 --"),
);

/** A shop-local date-time as the API takes it: a date, with minutes, seconds or a fraction. */
const localDateTime = fc
  .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .chain((d) => {
    const iso = d.toISOString().slice(0, 23);
    return fc.constantFrom(iso.slice(0, 10), iso.slice(0, 16), iso.slice(0, 19), iso);
  });
/** A calendar date (the digests' From and To), close enough to one another to make periods of 92 days or less. */
const calendarDate = fc
  .date({ min: new Date('2026-01-01'), max: new Date('2026-07-01'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const malformedDateTime = fc.oneof(
  fc.constantFrom(
    '2026-02-30',
    '2026-13-01',
    '2026-03-01T24:00:00',
    '2026-03-01T10:00:00Z',
    '2026-03-01T10:00:00+01:00',
    '2026-03-01 10:00',
    '2026-3-1',
    '0000-00-00',
    '2026-03-01T10:00:00.1234567891',
    'yesterday',
  ),
  localDateTime.map((s) => `${s}Z`),
  fc.string({ maxLength: 40 }),
);
const malformedCursor = fc.oneof(
  fc.base64String({ maxLength: 400 }),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,1500}$/),
  fc.string({ maxLength: 100 }),
);

function valueOf(name: string, schema: ParameterSchema): fc.Arbitrary<string> {
  const valid =
    // A feed's Wait holds a caught-up request up to that many seconds: only 0 keeps the run short
    // (its bounds are sent by the malformed values; waiting itself: test/feeds/wait.e2e-spec.ts).
    name === 'Wait'
      ? fc.constant('0')
      : schema.type === 'integer'
        ? fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 }).map(String)
        : schema.format === 'date'
          ? calendarDate
          : schema.pattern
            ? localDateTime
            : fc.string({ minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 64 });
  const malformed = schema.pattern
    ? malformedDateTime
    : name === 'Cursor'
      ? malformedCursor
      : oddText;
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: malformed }, oddText);
}

/** Query pairs: known names in any case, unknown ones, repeats, odd values. */
function queryOf(operation: FuzzOperation): fc.Arbitrary<string> {
  const known = operation.parameters.map(({ name, schema }) =>
    fc.tuple(fc.mixedCase(fc.constant(name)), valueOf(name, schema)),
  );
  const unknown = fc.tuple(
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      unicode,
      fc.constantFrom('access_token', '__proto__', 'From[]'),
    ),
    oddText,
  );
  const pairs = fc.array(
    known.length > 0 ? fc.oneof({ weight: 5, arbitrary: fc.oneof(...known) }, unknown) : unknown,
    {
      maxLength: 6,
    },
  );
  const raw = fc.constantFrom('', '', '', '&%zz', '&%', '&&=&', '&From', '&%E0%A4%A');
  return fc.tuple(pairs, fc.boolean(), raw).map(([list, repeat, tail]) => {
    const all = repeat && list.length > 0 ? [...list, list[0]] : list;
    const query = new URLSearchParams(all).toString() + tail;
    return query === '' ? '' : `?${query}`;
  });
}

/**
 * JSON nested up to 2,500 deep in arrays or objects, alone or in a field of a token request:
 * past MAX_JSON_DEPTH a 400 problem, never the stack overflow (500) it once was.
 */
const deepJson = fc
  .tuple(fc.integer({ min: 1, max: 2_500 }), fc.boolean(), fc.boolean())
  .map(([depth, arrays, wrapped]) => {
    const nested = arrays
      ? `${'['.repeat(depth)}${']'.repeat(depth)}`
      : `${'{"x":'.repeat(depth)}0${'}'.repeat(depth)}`;
    return wrapped ? `{"username":"a","password":"b","x":${nested}}` : nested;
  });

/** Bodies for an operation that takes JSON: well-formed, wrong types, extra fields, not JSON. */
function bodyOf(operation: FuzzOperation): fc.Arbitrary<{ body: string; contentType?: string }> {
  const fields = Object.entries(operation.body?.properties ?? {});
  const wellFormed = fc.record(
    Object.fromEntries(
      fields.map(([name, s]) => [
        name,
        fc.string({ minLength: s.minLength ?? 0, maxLength: s.maxLength ?? 64 }),
      ]),
    ),
  );
  const json = fc.oneof(
    { weight: 1, arbitrary: wellFormed.map((v) => JSON.stringify(v)) },
    { weight: 3, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(fc.constantFrom(...fields.map(([n]) => n), 'extra'), fc.jsonValue())
        .map((v) => JSON.stringify(v)),
    },
    { weight: 1, arbitrary: huge.map((h) => JSON.stringify({ username: h, password: h })) },
    { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
    { weight: 1, arbitrary: deepJson },
  );
  const contentType = fc.option(
    fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'multipart/form-data',
      ),
      headerText,
    ),
    { nil: undefined, freq: 8 },
  );
  return fc.record({ body: json, contentType });
}

/**
 * Requests derived from the operations of docs/openapi.json: each operation's parameters with
 * odd names and values, odd Accept and X-Request-Id headers, a token from `tokens` (or none, or
 * garbage), bad bodies for the operations that take one, now and then another method.
 */
export function fuzzRequest(
  operations: FuzzOperation[],
  tokens: string[],
): fc.Arbitrary<FuzzRequest> {
  const bearerLine = fc.constantFrom(...tokens).map((t) => `Bearer ${t}`);
  const authorizationLine = fc.oneof({ weight: 3, arbitrary: bearerLine }, headerText);
  // Usually one line; sometimes none, or two (in any order, the valid one included or not).
  const authorization = fc.oneof(
    { weight: 8, arbitrary: bearerLine.map((line) => [line]) },
    fc.constant<string[]>([]),
    authorizationLine.map((line) => [line]),
    fc.array(authorizationLine, { minLength: 2, maxLength: 3 }),
  );
  const accept = fc.option(
    fc.oneof(
      fc.constantFrom(
        '*/*',
        'application/json',
        'text/csv',
        'text/*;q=0.5, application/json;q=0.1',
        'application/xml',
        'text/csv;q=0',
      ),
      headerText,
    ),
  );
  const requestId = fc.option(
    fc.oneof(fc.constantFrom('trace-1', 'a'.repeat(300), '../x', '<b>'), headerText),
  );
  return fc.constantFrom(...operations).chain((operation) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(operation.method) },
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        ),
        query: queryOf(operation),
        body: operation.body ? fc.option(bodyOf(operation), { freq: 10 }) : fc.constant(null),
        authorization,
        accept,
        requestId,
      })
      .map(({ method, query, body, authorization: auth, accept: acc, requestId: id }) => {
        const headers: Record<string, string | string[]> = {};
        if (auth.length > 0) headers.Authorization = auth.length === 1 ? auth[0] : auth;
        const oneValidBearer = auth.length === 1 && tokens.some((t) => auth[0] === `Bearer ${t}`);
        if (acc !== null) headers.Accept = acc;
        if (id !== null) headers['X-Request-Id'] = id;
        const sendsBody = body !== null && method !== 'GET';
        if (sendsBody && body.contentType !== undefined) headers['Content-Type'] = body.contentType;
        return {
          method,
          url: `${operation.path}${query}`,
          headers,
          body: sendsBody ? body.body : undefined,
          oneValidBearer,
        };
      }),
  );
}
