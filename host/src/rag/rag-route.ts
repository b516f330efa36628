import type { HostRouteDeclaration } from '../http/route.js';

/** A route of a space's questions and documents, under `/api/rag/{espacio}` (OpenAPI tag `core`). */
export const ragRoute = <const Declaration extends Omit<HostRouteDeclaration, 'access' | 'tag'>>(
  declaration: Declaration,
) => ({
  ...declaration,
  path: `/api/rag/:espacio${declaration.path}`,
  access: 'space' as const,
  tag: 'core',
});
