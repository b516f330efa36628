import type { DependencyContainer } from 'tsyringe';
import { bodyDetails } from '../audit/audit-notes.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import { nullable, objectSchema } from '../http/response-schemas.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { MAX_ALLOWANCE } from '../studio/own-space-services.js';
import { adminRoute } from './admin-routes.js';
import { ALLOWANCE_FIELDS } from './own-space-routes.js';

const OPERATOR_ALLOWANCE_SCHEMA = objectSchema({
  propietario: { type: 'string' },
  propio: nullable('integer', {
    description: 'El cupo propio del propietario; null: el valor por defecto (`CEREBRO_OWNER_MAX_SPACES`).',
  }),
  ...ALLOWANCE_FIELDS,
});

/** The operator's side of owners' own spaces: how many each owner may hold and still create one from Studio. */
export const ADMIN_ALLOWANCE_ROUTES = declareRoutes([
  adminRoute({
    operationId: 'admin.getSpaceAllowance',
    method: 'GET',
    path: '/api/admin/propietarios/:id/cupo_espacios',
    summary: 'Cupo de espacios que un propietario puede crear desde Studio',
    responses: {
      '200': { description: 'El cupo, el propio y lo usado.', schema: OPERATOR_ALLOWANCE_SCHEMA },
      '404': { description: 'No existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.setSpaceAllowance',
    audit: { action: 'propietario.cupo_espacios_modificado', snapshot: true, describe: bodyDetails },
    method: 'PUT',
    path: '/api/admin/propietarios/:id/cupo_espacios',
    summary: 'Fijar cuántos espacios puede tener un propietario y seguir creándolos desde Studio',
    description: `\`max_espacios\`: un entero de 0 a ${MAX_ALLOWANCE} (0: solo el operador crea sus espacios) o null (vuelve al valor por defecto, \`CEREBRO_OWNER_MAX_SPACES\`). Cuenta todos los espacios del propietario; los que crea el operador no tienen límite, y bajar el cupo no quita ninguno.`,
    requestSchema: {
      type: 'object',
      required: ['max_espacios'],
      additionalProperties: false,
      properties: { max_espacios: { type: ['integer', 'null'], minimum: 0, maximum: MAX_ALLOWANCE } },
    },
    responses: {
      '200': { description: 'El cupo guardado.', schema: OPERATOR_ALLOWANCE_SCHEMA },
      '404': { description: 'No existe.' },
    },
  }),
]);

/** The handlers of the operator's allowance routes. */
export function adminAllowanceRoutes(container: DependencyContainer): HostRoute[] {
  const spaces = resolveToken(container, HostRootTokens.OwnSpaces);
  return hostRoutes(ADMIN_ALLOWANCE_ROUTES, {
    'admin.getSpaceAllowance': (ctx) => spaces.operatorAllowance(ctx.params.id!),
    'admin.setSpaceAllowance': (ctx) => spaces.setAllowance(ctx.params.id!, ctx.body.max_espacios),
  });
}
