import { ValidationError, ValidationPipe } from '@nestjs/common';
import { badRequest } from '../errors/problem';
import type { ProblemFieldErrorDto } from '../errors/problem-details.dto';

function flatten(errors: ValidationError[], parent = ''): ProblemFieldErrorDto[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Body validation: unknown fields refused, every problem listed in errors[]. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: false,
    exceptionFactory: (errors) => {
      const list = flatten(errors);
      if (list.length === 0) return badRequest('The request body must be a JSON object.');
      return badRequest(list.map((e) => e.message).join('; '), list);
    },
  });
}
