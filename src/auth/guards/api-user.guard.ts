import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { isPublicRoute } from '../../common/decorators/public.decorator';
import { forbidden } from '../../common/errors/problem';
import { API_USER_ROLE, CallerClaims } from '../caller';

/** Runs after the bearer guard: a valid token whose roles lack ApiUser is a 403. */
@Injectable()
export class ApiUserGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const { user } = context.switchToHttp().getRequest<{ user?: CallerClaims }>();
    if (!user?.roles.includes(API_USER_ROLE)) {
      throw forbidden(`The token does not carry the ${API_USER_ROLE} role.`);
    }
    return true;
  }
}
