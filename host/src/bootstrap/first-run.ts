import type { AdminService } from '../admin/admin-service.js';

export interface FirstRunResult {
  spaceId: string;
  ownerId: string;
  key: string;
  operatorCredential: string;
}

export const DEMO_SPACE = 'demo';
const DEMO_CREDITS = 1000;

/**
 * On a database with no owner and no operator: creates the operator credential, a demo owner with credits, a demo
 * space with the `api` module and every loaded module, and a write key. Returns the credentials, which exist in
 * clear only here; null when the database already had data.
 */
export function bootstrapFirstRun(admin: AdminService, moduleIds: string[]): FirstRunResult | null {
  if (!admin.isEmpty()) return null;
  const operator = admin.issueOperatorCredential('operador inicial');
  const owner = admin.createOwner({ name: 'Demo', credits: DEMO_CREDITS });
  admin.createSpace({ id: DEMO_SPACE, ownerId: owner.id, name: 'Espacio de demostración', modules: ['api', ...moduleIds] });
  const key = admin.issueKey(owner.id, 'demo', [], 'escribe');
  return { spaceId: DEMO_SPACE, ownerId: owner.id, key: key.token, operatorCredential: operator.token };
}

/** The banner `cerebro serve` prints on first run (to stderr: stdout carries the JSON logs, which never hold a key). */
export function firstRunBanner(baseUrl: string, result: FirstRunResult): string {
  return [
    '',
    'Primera ejecución: se han creado un propietario de demostración, el espacio "demo" con todos los módulos',
    'y estas credenciales. Guárdalas: no se volverán a mostrar.',
    '',
    `  Clave de servicio (escribe, todos los espacios del propietario): ${result.key}`,
    `  Credencial de operador (rutas /api/admin y CLI):                 ${result.operatorCredential}`,
    '',
    'Prueba:',
    `  curl -H "Authorization: Bearer ${result.key}" ${baseUrl}/api/companies`,
    `  curl -H "Authorization: Bearer ${result.key}" ${baseUrl}/api/mod/marca/${result.spaceId}/config`,
    '',
    `Documentación de todas las rutas: ${baseUrl}/api/openapi.json`,
    '',
  ].join('\n');
}
