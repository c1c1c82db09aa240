import { trace } from '@opentelemetry/api';

/**
 * A statement's literals: a backquoted identifier (kept, group 1), a quoted string (either quote,
 * backslash escapes and doubled quotes), a number (decimal, fraction, exponent, hex) that is not
 * part of a name.
 */
const LITERALS =
  /(`(?:[^`]|``)*`)|'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|\b(?:0x[0-9a-f]+|\d+(?:\.\d*)?(?:e[+-]?\d+)?)\b/gi;

/** The statement with every literal as `?` (one pass; the service's own `?` placeholders stay). */
export function maskedStatement(sql: string): string {
  return sql.replace(LITERALS, (literal, identifier?: string) => identifier ?? '?');
}

/**
 * mysql2's `maskStatementHook`: the instrumentation computes `db.query.text` before its span is
 * started, for every query. Under a request that is not sampled, the span records nothing and
 * the text is thrown away, so it is not computed (every standard sampler decides a child as its
 * parent); otherwise the masked statement.
 */
export function statementForSpan(sql: string): string {
  return trace.getActiveSpan()?.isRecording() === false ? '' : maskedStatement(sql);
}
