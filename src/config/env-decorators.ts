import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

/**
 * How a kind of environment variable is read and checked, for AppConfig: each helper stacks the
 * class-transformer and class-validator decorators that kind needs, in the order they were
 * written one above the other before (so the same checks, with the same messages).
 */
type EnvDecorator = (target: object, key: string) => void;

/**
 * The decorators as if written one above the other, the first on top (the bottom one applies
 * first).
 */
function stacked(...decorators: EnvDecorator[]): EnvDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  return value;
};

const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * A number from its text, as `Number` reads it, except blank: `Number('')` is 0, which for PORT
 * (0 allowed) would bind a random port without a word. Blank is made NaN, which IsInt refuses.
 */
const toNumber = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  return value.trim() === '' ? Number.NaN : Number(value);
};

/** A whole number from min to max; blank is refused, not read as 0. */
export const IntegerEnv = (min: number, max: number): EnvDecorator =>
  stacked(Transform(toNumber), IsInt(), Min(min), Max(max));

/** 1, true, yes, on or 0, false, no, off, empty (any case). */
export const BooleanEnv = (): EnvDecorator => stacked(Transform(toBoolean), IsBoolean());

/** A string of at least one character (and at most maxLength, when given). */
export const TextEnv = (maxLength?: number): EnvDecorator =>
  stacked(IsString(), MinLength(1), ...(maxLength === undefined ? [] : [MaxLength(maxLength)]));

/** May be unset: unset or blank is undefined; anything else must pass `checks`. */
export const OptionalEnv = (...checks: EnvDecorator[]): EnvDecorator =>
  stacked(Transform(emptyToUndefined), IsOptional(), ...checks);
