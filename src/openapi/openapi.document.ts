import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import {
  DocumentBuilder,
  OpenAPIObject,
  OperationObject,
  SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { apiDescription } from './openapi-description';
import { ProblemDetailsDto } from '../common/errors/problem-details.dto';
import { type ApiTag, declaredTag } from '../common/openapi/api-tag';
import { apiPath } from '../config/api-prefix';

/** Name of the security scheme in `components.securitySchemes`. */
export const BEARER_SCHEME = 'bearer';

/** Where the portal and the document are served. */
export const DOCS_PATH = '/docs';
export const DOCUMENT_PATH = '/docs/openapi.json';

function documentConfig(tags: readonly ApiTag[]): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setTitle('POS read API')
    .setVersion('1.0')
    // Written once the paths are known (buildOpenApiDocument): it names the cursor lists.
    .setDescription('')
    .addServer('/', 'This service (same origin as the documentation)')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          `The \`token\` of POST ${apiPath('Token')}, alone: paste it without \`Bearer \`. ` +
          'This page and clients that implement HTTP bearer add the prefix and send ' +
          '`Authorization: Bearer <token>`; by hand, send exactly that.',
      },
      BEARER_SCHEME,
    )
    .addSecurityRequirements(BEARER_SCHEME);
  for (const { name, description } of tags) builder.addTag(name, description);
  const config = builder.build();
  config.info.contact = { name: 'The POS read API team, through your integration contact' };
  return config;
}

/**
 * The OpenAPI 3 document of the service, built from the controllers' decorators. The same for
 * every APP_ENV: the portal mode changes the UI, never the document.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, documentConfig(tagsOf(app)), {
    extraModels: [ProblemDetailsDto],
    autoTagControllers: false,
  });
  document.info.description = apiDescription(cursorLists(document));
  return withParameterExamples(withoutIgnoredHeaderParameters(document));
}

/** The cursor lists of a document (each list operation dated by `x-dated-by`), by path segment. */
function cursorLists(document: OpenAPIObject): string[] {
  return Object.entries(document.paths)
    .filter(([, item]) => {
      const list: { operationId?: string; 'x-dated-by'?: unknown } | undefined = item.get;
      return list?.operationId?.startsWith('list') === true && list['x-dated-by'] !== undefined;
    })
    .map(([path]) => path.split('/').pop() ?? path);
}

/**
 * The tags the controllers declare (`ApiTagDescription`), in the order the root imports their
 * modules: registering a resource's module registers its tag.
 */
function tagsOf(app: INestApplication): ApiTag[] {
  const tags = new Map<string, ApiTag>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const controller of module.controllers.values()) {
      const tag = controller.metatype ? declaredTag(controller.metatype) : undefined;
      if (!tag) continue;
      const known = tags.get(tag.name);
      if (known && known.description !== tag.description) {
        throw new Error(`The tag ${tag.name} is declared twice, with two descriptions`);
      }
      tags.set(tag.name, tag);
    }
  }
  return [...tags.values()];
}

/** Header parameters OpenAPI says SHALL be ignored: content negotiation and auth are described elsewhere. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * Drops the header parameters Nest infers from `@Headers('accept')` and the like: OpenAPI 3
 * ignores them (the response media types and security schemes describe those headers), and
 * generated clients would otherwise ask for them as required arguments.
 */
function withoutIgnoredHeaderParameters(document: OpenAPIObject): OpenAPIObject {
  for (const operation of operationsOf(document)) {
    if (!operation.parameters) continue;
    operation.parameters = operation.parameters.filter(
      (p) => !('in' in p && p.in === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())),
    );
  }
  return document;
}

/**
 * Nest keeps a parameter's example (declared in its QueryParameter) only inside the parameter's
 * schema. It belongs on the parameter itself, where Swagger UI and Postman's importer read it
 * as the value to send: it is moved there.
 */
function withParameterExamples(document: OpenAPIObject): OpenAPIObject {
  for (const operation of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) {
      if (!('in' in parameter) || !parameter.schema || !('example' in parameter.schema)) continue;
      const schema: SchemaObject = { ...parameter.schema };
      parameter.example = schema.example as unknown;
      delete schema.example;
      parameter.schema = schema;
    }
  }
  return document;
}

function operationsOf(document: OpenAPIObject): OperationObject[] {
  return Object.values(document.paths).flatMap((item) =>
    [item.get, item.put, item.post, item.delete, item.patch].filter(
      (operation): operation is OperationObject => operation !== undefined,
    ),
  );
}
