import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

export const IS_PUBLIC = 'isPublic';

/** Opts a route out of the app-wide bearer authentication. Only the token route uses it. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** Route handler → controller class → @Public(): read once per route, not on every request. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- Nest's handler and class types
const PUBLIC_ROUTES = new WeakMap<Function, WeakMap<Function, boolean>>();

/**
 * Whether the route `context` runs is marked @Public(), the handler's mark before its
 * controller's. Decorator metadata is fixed once the classes are defined, so each route's answer
 * is remembered: the two app-wide guards ask on every request.
 */
export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  const handler = context.getHandler();
  const controller = context.getClass();
  let byController = PUBLIC_ROUTES.get(handler);
  const known = byController?.get(controller);
  if (known !== undefined) return known;
  const isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
  if (!byController) PUBLIC_ROUTES.set(handler, (byController = new WeakMap()));
  byController.set(controller, isPublic);
  return isPublic;
}
