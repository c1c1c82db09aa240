import type { ApiPropertyOptions } from '@nestjs/swagger';

/**
 * Shapes of the values the records carry, written once so every record documents them alike.
 * They describe what `src/common/sql-values.ts` produces.
 */
export const ID = {
  type: String,
  pattern: '^[0-9]+$',
  maxLength: 20,
  description: 'Identifier (an unsigned 64-bit integer, written as a string).',
} satisfies ApiPropertyOptions;

/** An id property with its own description; `nullable` for a reference that may be absent. */
export function idOf(description: string, nullable = false): ApiPropertyOptions {
  return nullable ? { ...ID, nullable: true, description } : { ...ID, description };
}

/**
 * A shop-local date-time as the API writes it back: no zone, milliseconds. OpenAPI has no format
 * for a date-time without a zone, so `x-local-date-time` says it: the client's generator reads it
 * as a TIMESTAMP not adjusted to UTC (packages/client/scripts/generate-types.mjs).
 */
export const LOCAL_DATE_TIME_OUT = {
  type: String,
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}$',
  description: 'Shop-local date-time without zone designator, as the register recorded it.',
  'x-local-date-time': true,
} as ApiPropertyOptions;

/**
 * The instant of a shop-local date-time: RFC 3339 in UTC with milliseconds, from the shop's
 * zone (common/zoned-time.ts); null when the shop's zone is unknown.
 */
export function utcInstantOf(of: string, example: string): ApiPropertyOptions {
  return {
    type: String,
    format: 'date-time',
    nullable: true,
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$',
    description:
      `The instant of \`${of}\` in UTC (RFC 3339, milliseconds), from the shop's IANA zone. ` +
      'A local time in a spring-forward gap is read with the offset before the change (it lands ' +
      'after the gap); one in a fall-back overlap is the earlier instant. Null when the shop has ' +
      'no zone the service knows.',
    example,
  };
}

/** A business date: the trading day a record belongs to. */
export function businessDateOf(description: string): ApiPropertyOptions {
  return { type: String, format: 'date', description, example: '2026-03-01' };
}

/** A DECIMAL value (a sum, say) as a string with exactly `scale` decimals, never a float. */
export function decimalOf(scale: number, description: string): ApiPropertyOptions {
  return {
    type: String,
    format: 'decimal',
    pattern: `^-?[0-9]+\\.[0-9]{${scale}}$`,
    description: `${description} Decimal string with ${scale} decimals.`,
  };
}

/**
 * A back-office DECIMAL(precision, scale) column as `decimalOf` writes it, with its precision in
 * `x-decimal-precision` (OpenAPI has no word for it): the client's generator types the column
 * exactly (a Parquet DECIMAL of that precision) and refuses a decimal record field without it.
 */
export function decimalColumnOf(
  precision: number,
  scale: number,
  description: string,
): ApiPropertyOptions {
  return {
    type: String,
    format: 'decimal',
    pattern: `^-?[0-9]+\\.[0-9]{${scale}}$`,
    description: `${description} Decimal string with ${scale} decimals.`,
    'x-decimal-precision': precision,
  } as ApiPropertyOptions;
}

export const CURRENCY = {
  type: String,
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 currency code.',
  example: 'EUR',
} satisfies ApiPropertyOptions;

export const SHOP_CODE = {
  type: String,
  minLength: 1,
  maxLength: 64,
  description: 'Code of the shop (the ShopCode of the query parameters).',
  example: 'SHOP001',
} satisfies ApiPropertyOptions;

export const REGISTER_CODE = {
  type: String,
  description: 'Code of the register within its shop.',
  example: 'R1',
} satisfies ApiPropertyOptions;

/** Kinds and statuses of a sale, as the back-office writes them today (sales and the report). */
export const SALE_KINDS = ['SALE', 'RETURN'] as const;
export const SALE_STATUSES = ['COMPLETED', 'VOIDED'] as const;

/** A nullable string property. */
export function nullableText(description: string, example?: string): ApiPropertyOptions {
  return { type: String, nullable: true, description, ...(example ? { example } : {}) };
}

/**
 * Values the back-office writes today. Listed as `x-extensible-enum`, not `enum`: the service
 * passes through what the back-office stores, and clients must accept values added later.
 */
export function extensibleEnum(values: readonly string[], description: string): ApiPropertyOptions {
  return {
    type: String,
    description: `${description} Known values: ${values.join(', ')} (more may be added).`,
    example: values[0],
    'x-extensible-enum': [...values],
  } as ApiPropertyOptions;
}
