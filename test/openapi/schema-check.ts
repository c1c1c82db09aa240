/**
 * Checks a JSON value against a schema of the OpenAPI document (the subset the document uses:
 * $ref, type, nullable, required, properties, items, pattern, min/max, format date). Returns the
 * list of mismatches, empty when the value conforms.
 */
type Schema = Record<string, any>;

export function mismatches(
  value: unknown,
  schema: Schema,
  components: Record<string, Schema>,
  at = '$',
): string[] {
  if (schema.$ref) {
    return mismatches(
      value,
      components[String(schema.$ref).split('/').pop() as string],
      components,
      at,
    );
  }
  if (value === null) return schema.nullable ? [] : [`${at}: null but not nullable`];
  const problems: string[] = [];
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${at}: not an object`];
      const record = value as Record<string, unknown>;
      const known = Object.keys(schema.properties ?? {});
      for (const key of schema.required ?? []) {
        if (!(key in record)) problems.push(`${at}.${key}: required but missing`);
      }
      for (const key of Object.keys(record)) {
        if (!known.includes(key)) problems.push(`${at}.${key}: not in the schema`);
        else
          problems.push(
            ...mismatches(record[key], schema.properties[key], components, `${at}.${key}`),
          );
      }
      return problems;
    }
    case 'array':
      if (!Array.isArray(value)) return [`${at}: not an array`];
      if (schema.maxItems !== undefined && value.length > schema.maxItems)
        problems.push(`${at}: too many items`);
      return problems.concat(
        value.flatMap((item, i) => mismatches(item, schema.items, components, `${at}[${i}]`)),
      );
    case 'integer':
      if (!Number.isInteger(value)) return [`${at}: not an integer`];
      if (schema.minimum !== undefined && (value as number) < schema.minimum)
        problems.push(`${at}: below minimum`);
      if (schema.maximum !== undefined && (value as number) > schema.maximum)
        problems.push(`${at}: above maximum`);
      return problems;
    case 'string': {
      if (typeof value !== 'string') return [`${at}: not a string`];
      if (schema.pattern && !new RegExp(schema.pattern).test(value))
        problems.push(`${at}: ${value} does not match ${schema.pattern}`);
      if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value))
        problems.push(`${at}: ${value} is not a date`);
      if (schema.format === 'date-time' && Number.isNaN(Date.parse(value)))
        problems.push(`${at}: not a date-time`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        problems.push(`${at}: too long`);
      if (schema.minLength !== undefined && value.length < schema.minLength)
        problems.push(`${at}: too short`);
      return problems;
    }
    default:
      return [`${at}: schema type ${String(schema.type)} not handled by this check`];
  }
}
