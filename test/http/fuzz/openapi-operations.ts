import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** One operation of docs/openapi.json, as the fuzz test needs it. */
export interface FuzzOperation {
  method: string;
  path: string;
  parameters: Array<{ name: string; schema: ParameterSchema }>;
  /** The JSON body's schema (properties with their limits), when the operation takes one. */
  body?: { properties: Record<string, ParameterSchema>; required: string[] };
}

export interface ParameterSchema {
  type?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
}

interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, { properties: Record<string, ParameterSchema>; required?: string[] }>;
  };
}
interface OperationObject {
  parameters?: Array<{ name: string; in: string; schema: ParameterSchema }>;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
}

/** Every operation of the committed OpenAPI document: the routes and parameters to fuzz. */
export function openApiOperations(): FuzzOperation[] {
  const file = path.join(__dirname, '../../../docs/openapi.json');
  const document = JSON.parse(readFileSync(file, 'utf8')) as Document;
  return Object.entries(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const ref = operation.requestBody?.content['application/json']?.schema.$ref;
      const schema = ref ? document.components.schemas[ref.split('/').pop() as string] : undefined;
      return {
        method: method.toUpperCase(),
        path: route,
        parameters: (operation.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map(({ name, schema: s }) => ({ name, schema: s })),
        body: schema && { properties: schema.properties, required: schema.required ?? [] },
      };
    }),
  );
}
