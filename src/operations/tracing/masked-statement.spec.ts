import * as otel from '@opentelemetry/api';
import { AlwaysOffSampler, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { maskedStatement, statementForSpan } from './masked-statement';

describe(maskedStatement.name, () => {
  it('should mask every quoted string and number, keeping placeholders and backquoted names', () => {
    const sql =
      "SELECT `s`.`col_1`, `t2`.`x``y` FROM `shop_orders` `s` WHERE `s`.`id` > 42 AND name = 'o''brien' " +
      `AND pw = 'a\\'b' AND q = "x\\"y" AND h = 0xDEAD AND d IN (1.5, 2e3, .5) AND c = ? LIMIT 101`;
    expect(maskedStatement(sql)).toBe(
      'SELECT `s`.`col_1`, `t2`.`x``y` FROM `shop_orders` `s` WHERE `s`.`id` > ? AND name = ? ' +
        'AND pw = ? AND q = ? AND h = ? AND d IN (?, ?, .?) AND c = ? LIMIT ?',
    );
  });

  it('should leave no digit or quote of a literal behind', () => {
    const secret =
      'WHERE token = \'eyJhbGciOiJFUzI1NiJ9.c2VjcmV0\' AND cursor = "Q1VSU09S" AND n = 123456';
    const masked = maskedStatement(secret);
    expect(masked).toBe('WHERE token = ? AND cursor = ? AND n = ?');
  });
});

describe(statementForSpan.name, () => {
  const provider = new NodeTracerProvider();
  beforeAll(() => provider.register({ propagator: null }));
  afterAll(async () => {
    await provider.shutdown();
    otel.trace.disable();
    otel.context.disable();
  });
  const sql = "SELECT 1 FROM `t` WHERE a = 'x'";

  it('should mask the statement of a recorded span, and outside any span', () => {
    expect(statementForSpan(sql)).toBe('SELECT ? FROM `t` WHERE a = ?');
    provider.getTracer('t').startActiveSpan('GET /sales', (span) => {
      expect(statementForSpan(sql)).toBe('SELECT ? FROM `t` WHERE a = ?');
      span.end();
    });
  });

  it("should give the same mask from its cache, and stay right past the cache's size", () => {
    expect(statementForSpan(sql)).toBe('SELECT ? FROM `t` WHERE a = ?');
    for (let i = 0; i < 600; i++) {
      expect(statementForSpan(`SELECT ${i} FROM \`t${i}\` WHERE b = 'v${i}'`)).toBe(
        `SELECT ? FROM \`t${i}\` WHERE b = ?`,
      );
    }
    expect(statementForSpan(sql)).toBe('SELECT ? FROM `t` WHERE a = ?');
  });

  it('should not compute it under a request that is not sampled', () => {
    const unsampled = new NodeTracerProvider({ sampler: new AlwaysOffSampler() });
    unsampled.getTracer('t').startActiveSpan('GET /sales', (span) => {
      expect(statementForSpan(sql)).toBe('');
      span.end();
    });
  });
});
