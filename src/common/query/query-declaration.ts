import { applyDecorators } from '@nestjs/common';
import { ApiQuery, type SchemaObject } from '@nestjs/swagger';
import { badRequest, ProblemException } from '../errors/problem';
import { RawQuery, readQueryParameters } from './query-parameters';

/**
 * One query parameter, declared once: what the OpenAPI document says about it (description,
 * schema, example) next to how the service reads it (`parse`). `ApiQueryParameters` makes the
 * document's parameters from a declaration and `readQuery` parses requests with the same one, so
 * the two cannot drift apart; test/openapi/parameter-examples.e2e-spec.ts sends every example.
 */
export interface QueryParameter<T, R extends boolean = boolean> {
  required: R;
  /** What the value is, for the problem when a required parameter is missing. */
  shape: string;
  description: string;
  /** Its bounds must be those `parse` enforces (built from the same constants). */
  schema: SchemaObject;
  /** A value a tool (Swagger UI, Postman's importer) can send as-is and be answered 200. */
  example: string | number;
  /** The value as the service uses it; throws a 400 problem naming the parameter. */
  parse(value: string, name: string): T;
}

/** The parameters of an operation, keyed by their names as the contract spells them. */
export type QueryDeclaration = Record<string, QueryParameter<unknown>>;

/** What `readQuery` returns: each parameter's parsed value, undefined when an optional one is absent. */
export type ParsedQuery<D extends QueryDeclaration> = {
  [K in keyof D]: D[K] extends QueryParameter<infer T, infer R>
    ? R extends true
      ? T
      : T | undefined
    : never;
};

const CASE_NOTE = 'Parameter names match case-insensitively (`shopcode` is `ShopCode`).';

/** A 400 naming one parameter: `Limit: must be a whole number from 1 to 500.` */
export const parameterError = (name: string, message: string): ProblemException =>
  badRequest(`${name}: ${message}.`, [{ field: name, message }]);

/**
 * Reads a request's query by its declaration: names case-insensitive, unknown, repeated and
 * over-long ones refused (readQueryParameters), required ones present, then each value parsed.
 * Every parameter in error is named in one 400 (`errors[]`).
 */
export function readQuery<D extends QueryDeclaration>(
  raw: RawQuery,
  declaration: D,
): ParsedQuery<D> {
  const names = Object.keys(declaration);
  const given: Partial<Record<string, string>> = readQueryParameters(raw, names);
  const missing = names
    .filter((name) => declaration[name].required && given[name] === undefined)
    .map((field) => ({ field, message: `is required (${declaration[field].shape})` }));
  if (missing.length > 0) {
    throw badRequest(missing.map((e) => `${e.field} ${e.message}`).join('; ') + '.', missing);
  }
  const parsed: Record<string, unknown> = {};
  const problems: ProblemException[] = [];
  for (const name of names) {
    const value = given[name];
    if (value === undefined) continue;
    try {
      parsed[name] = declaration[name].parse(value, name);
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      problems.push(error);
    }
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) {
    throw badRequest(
      problems.map((p) => p.detail).join(' '),
      problems.flatMap((p) => p.errors ?? []),
    );
  }
  return parsed as ParsedQuery<D>;
}

/** The OpenAPI parameters of a declaration, in its order. */
export function ApiQueryParameters(declaration: QueryDeclaration): MethodDecorator {
  return applyDecorators(
    ...Object.entries(declaration).map(([name, parameter]) =>
      ApiQuery({
        name,
        required: parameter.required,
        description: `${parameter.description} ${CASE_NOTE}`,
        // Nest keeps a parameter's example only inside its schema; openapi.document.ts moves
        // it onto the parameter, where Swagger UI and Postman's importer read it.
        schema: { ...parameter.schema, example: parameter.example },
      }),
    ),
  );
}
