import { join } from 'node:path';
import type { AdminActions } from '../admin/admin-services.js';
import { removeLeftoverTemporaries, writePrivateFileAtomically } from './private-file.js';

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

/** The points of the first run, in order, after which a test may stop it (`CEREBRO_TEST_FIRST_RUN_PAUSE`). */
export const FIRST_RUN_POINTS = [
  'operador',
  'propietario',
  'espacio',
  'clave',
  'correo',
  'contrasena',
  'archivo',
  'confirmado',
] as const;
export type FirstRunPoint = (typeof FIRST_RUN_POINTS)[number];
/** Called after each point of the first run: resolves at once outside the crash tests. */
export type FirstRunPause = (point: FirstRunPoint) => Promise<void>;
const noPause: FirstRunPause = () => Promise.resolve();

/**
 * On a database with no owner and no operator: creates the operator credential, a demo owner with credits and a
 * Studio sign-in (email and a generated password), a demo space with the `api` module and every loaded module, and
 * a write key. Returns the credentials, which exist in clear only here; null when the database already had data.
 * Its writes are separate steps: the caller runs it inside one unit (`RunningHost.firstStart`) with the file.
 */
export async function bootstrapFirstRun(
  admin: AdminActions,
  moduleIds: string[],
  pause: FirstRunPause = noPause,
): Promise<FirstRunResult | null> {
  if (!(await admin.isEmpty())) return null;
  const operator = await admin.issueOperatorCredential('operador inicial');
  await pause('operador');
  const owner = await admin.createOwner({ name: 'Demo', credits: DEMO_CREDITS });
  await pause('propietario');
  await admin.createSpace({
    id: DEMO_SPACE,
    ownerId: owner.id,
    name: 'Espacio de demostración',
    modules: ['api', ...moduleIds],
  });
  await pause('espacio');
  const key = await admin.issueKey(owner.id, 'demo', [], 'escribe');
  await pause('clave');
  const email = (await admin.setOwnerEmail(owner.id, DEMO_EMAIL)).email;
  await pause('correo');
  const { clave } = await admin.setOwnerPassword(owner.id);
  await pause('contrasena');
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
 * Writes the first run's credentials to `<data dir>/primer-arranque.txt`, readable by the service's user only
 * (0600), replacing an older file at once (temporary file, fsync, rename: never a half-written one, never through a
 * planted link). Called inside the first start's unit, whose lock no other writer of the file holds: a temporary
 * file left by a start killed before its rename is removed. Returns the file's path.
 */
export function saveFirstRunFile(dataDir: string, baseUrl: string, result: FirstRunResult): string {
  const file = join(dataDir, FIRST_RUN_FILE);
  removeLeftoverTemporaries(file);
  const banner = firstRunBanner(baseUrl, result);
  writePrivateFileAtomically(
    file,
    `${banner.trimStart()}\nBorra este archivo cuando hayas guardado las credenciales.\n`,
  );
  return file;
}

/**
 * Tells the operator where the first run's credentials are without leaving them in a log: the banner on
 * `terminal` when it is one, only the file's path otherwise. Under systemd or Docker stderr is a pipe into journald
 * or `docker logs`, where a secret would stay for anyone who can read them.
 */
export function announceFirstRun(
  terminal: NodeJS.WritableStream & { isTTY?: boolean },
  file: string,
  baseUrl: string,
  result: FirstRunResult,
): void {
  const where = `Las credenciales están en ${file} (solo legible por este usuario); bórralo cuando las hayas guardado.`;
  terminal.write(
    terminal.isTTY === true
      ? `${firstRunBanner(baseUrl, result)}${where}\n\n`
      : [
          '',
          'Primera ejecución: se han creado un propietario de demostración, el espacio "demo" con todos los módulos y sus credenciales.',
          where,
          `Cerebro escuchando en ${baseUrl}/api (Studio: ${baseUrl}/studio/). Documentación de todas las rutas: ${baseUrl}/api/openapi.json`,
          '',
          '',
        ].join('\n'),
  );
}
