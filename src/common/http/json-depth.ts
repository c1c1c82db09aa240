import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH } from '../../config/limits';
import { badRequest } from '../errors/problem';

/**
 * Whether `text` opens more than `max` arrays or objects inside one another (outside strings).
 * A linear scan of at most BODY_LIMIT_BYTES, before JSON.parse builds anything.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/**
 * Fastify's own JSON parser (the same prototype-poisoning refusals) behind a bound on nesting:
 * a body nested deeper than MAX_JSON_DEPTH is a 400 problem at parse time. Deep nesting
 * overflowed the stack of the validation pipe's recursive walk (a 500 and a stack in the log for
 * a 4 KB anonymous request).
 */
export function boundJsonNesting(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestedDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(
        badRequest(`The request body nests arrays or objects more than ${MAX_JSON_DEPTH} deep.`),
        undefined,
      );
      return;
    }
    void parse(request, body as string, done);
  });
}
