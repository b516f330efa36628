// The request pipeline as an interface, which the host's `Pipeline` token is typed by: the app that mounts the
// routes depends on this shape, not on the class that implements it.
import type { Middleware } from 'polka';
import type { HostRoute } from './route.js';

/** Turns a declared route into the polka handler that authenticates, limits, validates, charges and answers. */
export interface RoutePipeline {
  /** `readBack`: the GET at the same path, whose answer a `snapshot` route keeps before and after a change. */
  handlerFor(route: HostRoute, readBack?: HostRoute): Middleware;
}
