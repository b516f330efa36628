// The console's view of the wire: types read from the OpenAPI document (openapi.gen.ts, generated at build time by
// scripts/wire-types.mjs), never re-declared by hand, so a field the service renames or drops fails the build.
import type { paths } from './openapi.gen.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The JSON body a route answers with `status` (200 unless said), as the OpenAPI document declares it. */
export type Ok<P extends keyof paths, M extends Method & keyof paths[P], S extends number = 200> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/** The JSON body a route takes. */
export type Sent<P extends keyof paths, M extends Method & keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The items of a list. */
export type Item<T> = T extends readonly (infer I)[] ? I : never;
