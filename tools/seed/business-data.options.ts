import type { BusinessDataOptions } from './business-data.types';
import { isIsoDate } from './seed-format';

/** Per shop and day; keeps a day's times a second apart and a batch's size bounded. */
export const MAX_SALES_PER_DAY = 5_000;

/** Throws a RangeError listing every problem of the options. */
export function validateBusinessDataOptions(options: BusinessDataOptions): void {
  const problems: string[] = [];
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 0xffffffff) {
    problems.push('seed must be an integer from 0 to 4294967295');
  }
  if (!Number.isInteger(options.days) || options.days < 1 || options.days > 36_600) {
    problems.push('days must be an integer from 1 to 36600');
  }
  if (!(options.salesPerDay >= 0 && options.salesPerDay <= MAX_SALES_PER_DAY)) {
    problems.push(`salesPerDay must be from 0 to ${MAX_SALES_PER_DAY}`);
  }
  if (!isIsoDate(options.startDate)) problems.push('startDate must be a date YYYY-MM-DD');
  const specs = typeof options.shops === 'number' ? null : options.shops;
  if (
    specs === null &&
    !(
      Number.isInteger(options.shops) &&
      Number(options.shops) >= 1 &&
      Number(options.shops) <= 9_999
    )
  ) {
    problems.push('shops must be an integer from 1 to 9999');
  }
  if (specs && specs.length === 0) problems.push('shops must not be empty');
  const codes = new Set<string>();
  for (const spec of specs ?? []) {
    if (!/^\S{1,16}$/.test(spec.code))
      problems.push(`shop code must be 1-16 characters: ${spec.code}`);
    if (codes.has(spec.code)) problems.push(`shop code repeated: ${spec.code}`);
    codes.add(spec.code);
    if (spec.registers?.length === 0) problems.push(`shop ${spec.code} has no registers`);
    const hours = spec.hours;
    if (
      hours &&
      !(
        Number.isInteger(hours.open) &&
        Number.isInteger(hours.close) &&
        hours.open >= 1 &&
        hours.open <= 23 &&
        hours.close >= hours.open + 3 &&
        hours.close <= hours.open + 23
      )
    ) {
      // The float goes in before opening, the count after closing, before the next day's float.
      problems.push(`shop ${spec.code} hours: open 1 to 23, close 3 to 23 hours after open`);
    }
  }
  if (problems.length > 0) throw new RangeError(`Invalid seed options: ${problems.join('; ')}`);
}
