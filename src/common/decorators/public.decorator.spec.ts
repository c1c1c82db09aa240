import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { isPublicRoute, Public } from './public.decorator';

class Controller {
  route(): void {}

  @Public()
  publicRoute(): void {}
}

/** Inherits `route` (the same handler function) but is @Public() as a whole. */
@Public()
class PublicController extends Controller {}

const context = (controller: object, handler: () => void) =>
  new ExecutionContextHost([{}, {}], controller as never, handler);

describe(isPublicRoute.name, () => {
  it("should read the handler's mark, then its controller's", () => {
    const reflector = new Reflector();
    expect(isPublicRoute(reflector, context(Controller, Controller.prototype.route))).toBe(false);
    expect(isPublicRoute(reflector, context(Controller, Controller.prototype.publicRoute))).toBe(
      true,
    );
    expect(isPublicRoute(reflector, context(PublicController, Controller.prototype.route))).toBe(
      true,
    );
    // The same handler under its own controller is still not public once the other was asked.
    expect(isPublicRoute(reflector, context(Controller, Controller.prototype.route))).toBe(false);
  });

  it('should read the metadata once per route, not on every request', () => {
    class Fresh {
      route(): void {}
    }
    const reflector = new Reflector();
    const read = jest.spyOn(reflector, 'getAllAndOverride');
    for (let i = 0; i < 3; i++) isPublicRoute(reflector, context(Fresh, Fresh.prototype.route));
    expect(read).toHaveBeenCalledTimes(1);
  });
});
