import { underUnsampledSpan } from './recorded-queries';

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

/** How many statements' masks are kept: the service sends a few dozen shapes of statement. */
const CACHED_STATEMENTS = 256;
const masks = new Map<string, string>();

/**
 * mysql2's `maskStatementHook`: the instrumentation computes `db.query.text` before its span is
 * started, for every query. Under a request that is not sampled, the span records nothing and
 * the text is thrown away, so it is not computed (every standard sampler decides a child as its
 * parent); otherwise the masked statement. The service's statements are the same few shapes
 * (values are parameters, never in the text), so each mask is computed once and the spans share
 * its string instead of each holding a copy of 1 to 2 kB until it is exported; the cache is
 * emptied when it holds more than CACHED_STATEMENTS (lists of `?` of every length, say).
 */
export function statementForSpan(sql: string): string {
  if (underUnsampledSpan()) return '';
  let masked = masks.get(sql);
  if (masked === undefined) {
    if (masks.size >= CACHED_STATEMENTS) masks.clear();
    masked = maskedStatement(sql);
    masks.set(sql, masked);
  }
  return masked;
}
