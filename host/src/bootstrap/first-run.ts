import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminActions } from '../admin/admin-services.js';

/** Where the first run's credentials are kept for the operator, inside the data directory. */
export const FIRST_RUN_FILE = 'primer-arranque.txt';

export interface FirstRunResult {
  spaceId: string;
  ownerId: string;
  key: string;
  operatorCredential: string;
  /** How the demo owner signs in to Studio (`/studio/`): an email and a generated password. */
  studio: { email: string; clave: string };
}

export const DEMO_SPACE = 'demo';
/** The first run's name among the first-start steps a shared database records (`cerebro_bootstrap`). */
export const FIRST_RUN_STEP = 'primer-arranque';
const DEMO_CREDITS = 1000;
/** A reserved domain (RFC 2606): no mail can ever reach it, and it cannot clash with a real owner's address. */
export const DEMO_EMAIL = 'demo@cerebro.example';

/**
 * On a database with no owner and no operator: creates the operator credential, a demo owner with credits and a
 * Studio sign-in (email and a generated password), a demo space with the `api` module and every loaded module, and
 * a write key. Returns the credentials, which exist in clear only here; null when the database already had data.
 */
export async function bootstrapFirstRun(admin: AdminActions, moduleIds: string[]): Promise<FirstRunResult | null> {
  if (!(await admin.isEmpty())) return null;
  const operator = await admin.issueOperatorCredential('operador inicial');
  const owner = await admin.createOwner({ name: 'Demo', credits: DEMO_CREDITS });
  await admin.createSpace({
    id: DEMO_SPACE,
    ownerId: owner.id,
    name: 'Espacio de demostración',
    modules: ['api', ...moduleIds],
  });
  const key = await admin.issueKey(owner.id, 'demo', [], 'escribe');
  const email = (await admin.setOwnerEmail(owner.id, DEMO_EMAIL)).email;
  const { clave } = await admin.setOwnerPassword(owner.id);
  return {
    spaceId: DEMO_SPACE,
    ownerId: owner.id,
    key: key.token,
    operatorCredential: operator.token,
    studio: { email, clave: clave! },
  };
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
    `Studio (consola web): ${baseUrl}/studio/`,
    `  Correo: ${result.studio.email}`,
    `  Contraseña: ${result.studio.clave}`,
    '',
    'Prueba:',
    `  curl -H "Authorization: Bearer ${result.key}" ${baseUrl}/api/companies`,
    `  curl -H "Authorization: Bearer ${result.key}" ${baseUrl}/api/mod/marca/${result.spaceId}/config`,
    '',
    `Documentación de todas las rutas: ${baseUrl}/api/openapi.json`,
    '',
  ].join('\n');
}

/**
 * Hands the first run's credentials to the operator without leaving them in a log: always in
 * `<data dir>/primer-arranque.txt`, readable by the service's user only (0600), and on `terminal` as well when it
 * is one. Under systemd or Docker stderr is a pipe into journald or `docker logs`, where a secret would stay for
 * anyone who can read them; there only the file's path is written. Returns the file's path.
 */
export function announceFirstRun(
  terminal: NodeJS.WritableStream & { isTTY?: boolean },
  dataDir: string,
  baseUrl: string,
  result: FirstRunResult,
): string {
  const file = join(dataDir, FIRST_RUN_FILE);
  const banner = firstRunBanner(baseUrl, result);
  // A fresh file (O_EXCL) so the mode applies and no planted link is followed; an old one is from an earlier database.
  rmSync(file, { force: true });
  writeFileSync(file, `${banner.trimStart()}\nBorra este archivo cuando hayas guardado las credenciales.\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  const where = `Las credenciales están en ${file} (solo legible por este usuario); bórralo cuando las hayas guardado.`;
  terminal.write(
    terminal.isTTY === true
      ? `${banner}${where}\n\n`
      : [
          '',
          'Primera ejecución: se han creado un propietario de demostración, el espacio "demo" con todos los módulos y sus credenciales.',
          where,
          `Cerebro escuchando en ${baseUrl}/api (Studio: ${baseUrl}/studio/). Documentación de todas las rutas: ${baseUrl}/api/openapi.json`,
          '',
          '',
        ].join('\n'),
  );
  return file;
}
