import type { ExecutionContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { Public } from '../decorators/public.decorator';

/** A controller for guard specs: one ordinary route and one marked @Public(). */
export class GuardSpecController {
  route(): void {}

  @Public()
  publicRoute(): void {}
}

/** The ExecutionContext Nest hands a guard for an HTTP request to one of GuardSpecController's routes. */
export function httpContext(
  request: object,
  options: { response?: object; route?: keyof GuardSpecController } = {},
): ExecutionContext {
  const handler = GuardSpecController.prototype[options.route ?? 'route'];
  return new ExecutionContextHost([request, options.response ?? {}], GuardSpecController, handler);
}
