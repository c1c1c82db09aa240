import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Reflector } from '@nestjs/core';
import { TokenExpiredError } from 'jsonwebtoken';
import { ProblemException } from '../common/errors/problem';
import { httpContext } from '../common/testing/http-context';
import { BEARER_PROBLEMS } from './bearer-problems';
import { BearerAuthGuard } from './guards/bearer-auth.guard';
import { currentRevocations } from './testing/current-revocations';
import { ApiUserGuard } from './guards/api-user.guard';

interface Documented {
  description: string;
  content: { 'application/problem+json': { example: Record<string, unknown> } };
}

/** The OpenAPI document clients read (committed; `npm run openapi:check` keeps it the code's). */
const openapi = JSON.parse(
  readFileSync(path.join(__dirname, '../../docs/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, { responses: Record<string, Documented> }>> };

const bearerOperations = Object.entries(openapi.paths)
  .filter(([route]) => route !== '/api/v1.0/Token')
  .flatMap(([route, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ route, method, operation })),
  );

const thrown = (run: () => unknown): ProblemException => {
  try {
    run();
  } catch (error) {
    return error as ProblemException;
  }
  throw new Error('nothing thrown');
};

describe('BEARER_PROBLEMS', () => {
  it('should be the 401 and 403 every bearer route publishes', () => {
    expect(bearerOperations.length).toBeGreaterThanOrEqual(11);
    for (const { route, method, operation } of bearerOperations) {
      for (const status of [401, 403] as const) {
        const documented = operation.responses[status];
        const problem = BEARER_PROBLEMS[status];
        expect([route, method, status, documented.description]).toEqual([
          route,
          method,
          status,
          problem?.description,
        ]);
        expect(documented.content['application/problem+json'].example).toMatchObject({
          type: `urn:pos-read-api:problem:${problem?.slug}`,
          title: problem?.title,
          status,
          detail: problem?.detail,
        });
      }
    }
  });

  it('should document the 403 the role guard answers', () => {
    const problem = thrown(() =>
      new ApiUserGuard(new Reflector()).canActivate(
        httpContext({ user: { roles: ['StoreManager'] } }),
      ),
    );
    expect(problem.getStatus()).toBe(403);
    expect([problem.slug, problem.title, problem.detail]).toEqual([
      BEARER_PROBLEMS[403]?.slug,
      BEARER_PROBLEMS[403]?.title,
      BEARER_PROBLEMS[403]?.detail,
    ]);
  });

  it('should document the 401 the bearer guard answers to an expired token', () => {
    const problem = thrown(() =>
      new BearerAuthGuard(new Reflector(), currentRevocations).handleRequest(
        null,
        false,
        new TokenExpiredError('jwt expired', new Date()),
      ),
    );
    expect(problem.getStatus()).toBe(401);
    expect([problem.slug, problem.title, problem.detail]).toEqual([
      BEARER_PROBLEMS[401]?.slug,
      BEARER_PROBLEMS[401]?.title,
      BEARER_PROBLEMS[401]?.detail,
    ]);
  });
});
