import { createHash } from 'node:crypto';

/** A JSON value as the API returns it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values the API returns. JCS writes numbers
 * and strings exactly as ECMAScript's JSON.stringify does (RFC 8785, 3.2.2.2 and 3.2.2.3), so
 * they are left to it; what JCS adds is no whitespace and object members sorted by their names'
 * UTF-16 code units (3.2.3), which is how JavaScript compares strings. Non-finite numbers are
 * not JSON and are refused, as JCS requires.
 */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new TypeError(`JCS: ${value} is not a JSON number`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value);
  const shape = shapeOf(keys);
  let text = '';
  for (let i = 0; i < shape.order.length; i++) {
    const member = value[keys[shape.order[i]]];
    if (member === undefined) continue;
    text += `${text === '' ? '' : ','}${shape.names[i]}${canonicalJson(member)}`;
  }
  return `{${text}}`;
}

/** An object's member names in JCS order: their indexes in Object.keys, and `"name":` each. */
interface Shape {
  keys: readonly string[];
  order: number[];
  names: string[];
}

/**
 * The records of a day share a few shapes (a sale, its line), so the sorted order of the last
 * shapes seen is kept and reused when an object's names are the same, in the same order.
 */
const shapes: Shape[] = [];
const SHAPES_KEPT = 8;

function shapeOf(keys: readonly string[]): Shape {
  for (const shape of shapes) {
    if (shape.keys.length === keys.length && shape.keys.every((key, i) => key === keys[i])) {
      return shape;
    }
  }
  const order = keys
    .map((_, i) => i)
    .sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const shape = { keys: [...keys], order, names: order.map((i) => `${JSON.stringify(keys[i])}:`) };
  shapes.unshift(shape);
  shapes.length = Math.min(shapes.length, SHAPES_KEPT);
  return shape;
}

/**
 * The published day checksum (docs/sync.md): lowercase hex SHA-256 of each record's canonical
 * JSON followed by "\n", over the day's records in ascending numeric id order (the caller gives
 * them in that order). An empty day is the SHA-256 of the empty string.
 */
export function dayChecksum(records: Iterable<Json>): string {
  const hash = createHash('sha256');
  for (const record of records) hash.update(canonicalJson(record) + '\n', 'utf8');
  return hash.digest('hex');
}
