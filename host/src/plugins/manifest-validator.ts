// semver's own modules for the four checks, not its index: the index loads every function and range helper (47
// modules), and this file is loaded by every start.
import intersects from 'semver/ranges/intersects.js';
import satisfies from 'semver/functions/satisfies.js';
import valid from 'semver/functions/valid.js';
import validRange from 'semver/ranges/valid.js';
import {
  ERROR_CATALOGUE,
  HostServices,
  SDK_STILL_SERVED,
  SDK_VERSION,
  tokenName,
  type PluginDefinition,
  type PluginManifest,
  type RouteDeclaration,
} from '@cerebro/sdk';
import { routeSchemaProblem } from '../http/schema-validation.js';
import { MigrationError, touchedObjects } from '../storage/migrator.js';
import { tablePrefixOf } from '../storage/plugin-storage.js';
import { PluginError } from './plugin-error.js';
import { reservedIdReason } from './reserved-ids.js';

export const PLUGIN_ID = /^[a-z][a-z0-9-]{1,31}$/;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const PATH = /^(\/(:[a-zA-Z][a-zA-Z0-9_]*|[a-zA-Z0-9._-]+))+$/;
const HOST_SERVICE_TOKENS = new Set<symbol>(Object.values(HostServices));
const ERROR_CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Checks the shape of a plugin's default export before anything else is read from it. */
export function assertDefinition(value: unknown, source: string): asserts value is PluginDefinition {
  const def = value as Partial<PluginDefinition> | undefined;
  if (!def || typeof def !== 'object' || !def.manifest || typeof def.setup !== 'function') {
    throw new PluginError(
      'PLUGIN_ENTRY_INVALID',
      source,
      'su módulo de entrada debe exportar por defecto definePlugin({ manifest, setup }).',
    );
  }
}

function fail(manifest: PluginManifest, message: string): never {
  throw new PluginError('PLUGIN_MANIFEST_INVALID', manifest.id ?? '?', message);
}

/**
 * What a route reachable without a key may not do: write with an owner's permission, cost credits, hold an
 * idempotency key, take uploads, or go uncounted. `form` bodies are for such routes only (a page without script).
 */
function publicRouteProblem(route: RouteDeclaration): string | null {
  const declared = route.public;
  if (declared === undefined) return route.body === 'form' ? 'body "form" solo vale en rutas públicas.' : null;
  if (typeof declared !== 'object' || declared === null) return 'public debe ser un objeto { perMinute }.';
  if (!Number.isInteger(declared.perMinute) || declared.perMinute < 1 || declared.perMinute > 600)
    return 'public.perMinute debe ser un entero entre 1 y 600.';
  if (route.permission !== 'lee') return 'una ruta pública declara permission "lee".';
  if (route.credits) return 'una ruta pública no puede costar créditos.';
  if (route.idempotent) return 'una ruta pública no admite idempotent.';
  if (route.body === 'multipart') return 'una ruta pública no admite cuerpo multipart.';
  if (route.maxBodyBytes !== undefined && (!Number.isInteger(route.maxBodyBytes) || route.maxBodyBytes < 1))
    return 'maxBodyBytes debe ser un entero positivo.';
  return null;
}

/**
 * Validates one manifest on its own: id, versions, routes, services, migrations and config. Route schemas are
 * compiled unless `compileSchemas` is false, for the plugins shipped with the host: compiling every route's schemas
 * was most of the CPU a start spent on plugins, and theirs are compiled by the host's tests
 * (route-schemas.test.ts), then at each route's first request, as the host's own routes are.
 */
export function validateManifest(manifest: PluginManifest, compileSchemas = true): void {
  if (typeof manifest.id !== 'string' || !PLUGIN_ID.test(manifest.id)) {
    throw new PluginError(
      'PLUGIN_MANIFEST_INVALID',
      String(manifest.id),
      'id no válido: minúsculas, cifras y guiones, de 2 a 32 caracteres, empezando por letra.',
    );
  }
  const reserved = reservedIdReason(manifest.id);
  if (reserved) fail(manifest, reserved);
  if (!valid(manifest.version)) fail(manifest, `version "${manifest.version}" no es semver.`);
  if (!validRange(manifest.sdk)) fail(manifest, `sdk "${manifest.sdk}" no es un rango semver.`);
  // A range met by this sdk, or one of a line this host still serves (a 1.x plugin loads on an sdk 2 host).
  if (!satisfies(SDK_VERSION, manifest.sdk) && !intersects(manifest.sdk, SDK_STILL_SERVED)) {
    throw new PluginError(
      'PLUGIN_SDK_RANGE',
      manifest.id,
      `necesita el sdk ${manifest.sdk} y este host ofrece ${SDK_VERSION}.`,
    );
  }
  if (typeof manifest.title !== 'string' || !manifest.title) fail(manifest, 'falta title.');
  if (!Array.isArray(manifest.routes)) fail(manifest, 'routes debe ser una lista.');

  const routeIds = new Set<string>();
  const shapes = new Map<string, string>();
  for (const route of manifest.routes) {
    if (!route.id || routeIds.has(route.id)) fail(manifest, `ruta con id vacío o repetido: "${route.id}".`);
    routeIds.add(route.id);
    if (!METHODS.has(route.method)) fail(manifest, `ruta ${route.id}: método "${route.method}" no admitido.`);
    if (typeof route.path !== 'string' || !PATH.test(route.path))
      fail(manifest, `ruta ${route.id}: path "${route.path}" no válido (debe empezar por / y usar :parametro).`);
    if (/(^|\/):espacio(\/|$)/.test(route.path))
      fail(manifest, `ruta ${route.id}: :espacio lo pone el host, no el plugin.`);
    if (route.permission !== 'lee' && route.permission !== 'escribe')
      fail(manifest, `ruta ${route.id}: permission debe ser "lee" o "escribe".`);
    if (route.credits !== undefined && (!Number.isInteger(route.credits) || route.credits < 0))
      fail(manifest, `ruta ${route.id}: credits debe ser un entero >= 0.`);
    if (route.body !== undefined && !['json', 'multipart', 'none', 'form'].includes(route.body))
      fail(manifest, `ruta ${route.id}: body debe ser json, multipart, none o form.`);
    const publicProblem = publicRouteProblem(route);
    if (publicProblem) fail(manifest, `ruta ${route.id}: ${publicProblem}`);
    if (route.idempotent !== undefined && typeof route.idempotent !== 'boolean')
      fail(manifest, `ruta ${route.id}: idempotent debe ser true o false.`);
    // The JSON body is what makes two requests "the same": without one a key could not tell a retry from another call.
    if (
      route.idempotent &&
      (!['POST', 'PUT', 'PATCH'].includes(route.method) || (route.body !== undefined && route.body !== 'json'))
    ) {
      fail(manifest, `ruta ${route.id}: idempotent solo vale para POST, PUT o PATCH con cuerpo JSON.`);
    }
    if (!route.summary) fail(manifest, `ruta ${route.id}: falta summary.`);
    const schemaProblem = routeSchemaProblem(route, compileSchemas);
    if (schemaProblem) fail(manifest, `ruta ${route.id}: ${schemaProblem}`);
    const shape = `${route.method} ${routeShape(route.path)}`;
    const other = shapes.get(shape);
    if (other) {
      throw new PluginError(
        'PLUGIN_ROUTE_COLLISION',
        manifest.id,
        `las rutas "${other}" y "${route.id}" coinciden (${route.method} ${route.path}).`,
      );
    }
    shapes.set(shape, route.id);
  }

  for (const token of manifest.needs ?? []) {
    if (!HOST_SERVICE_TOKENS.has(token)) {
      throw new PluginError(
        'PLUGIN_UNKNOWN_SERVICE',
        manifest.id,
        `pide el servicio "${tokenName(token)}", que el host no ofrece (disponibles: ${[...HOST_SERVICE_TOKENS].map(tokenName).join(', ')}).`,
      );
    }
  }
  for (const token of manifest.provides ?? []) {
    if (HOST_SERVICE_TOKENS.has(token))
      fail(manifest, `no puede proporcionar el servicio del host "${tokenName(token)}".`);
  }

  const prefix = tablePrefixOf(manifest.id);
  const migrationIds = (manifest.migrations ?? []).map((m) => m.id);
  if (new Set(migrationIds).size !== migrationIds.length) fail(manifest, 'hay migraciones con el mismo id.');
  if (manifest.postgresMigrations) {
    // One ledger, the same on both backends: the PostgreSQL migrations are the SQLite ones' twins, id for id.
    const twinIds = manifest.postgresMigrations.map((m) => m.id);
    if (twinIds.join('\n') !== migrationIds.join('\n')) {
      fail(
        manifest,
        `las migraciones de PostgreSQL (postgresMigrations) deben tener los mismos ids que las de SQLite, en el mismo orden: [${twinIds.join(', ')}] frente a [${migrationIds.join(', ')}].`,
      );
    }
  }
  for (const migration of [...(manifest.migrations ?? []), ...(manifest.postgresMigrations ?? [])]) {
    const foreign = touchedObjects(migration.sql).filter((name) => !name.toLowerCase().startsWith(prefix));
    if (foreign.length > 0) {
      throw new PluginError(
        'PLUGIN_MIGRATION',
        manifest.id,
        new MigrationError(
          'MIGRATION_NAMESPACE',
          manifest.id,
          `la migración ${migration.id} toca objetos fuera del prefijo "${prefix}": ${foreign.join(', ')}.`,
        ).message,
      );
    }
  }
  for (const [key, value] of Object.entries(manifest.config ?? {})) {
    if (!['string', 'number', 'boolean'].includes(typeof value))
      fail(manifest, `config.${key}: solo se admiten textos, números y booleanos.`);
  }
  validateErrorCodes(manifest);
}

/** The manifest's own error codes: well formed, an error status, a text, and none of the host's. */
function validateErrorCodes(manifest: PluginManifest): void {
  if (manifest.errors === undefined) return;
  if (typeof manifest.errors !== 'object' || manifest.errors === null || Array.isArray(manifest.errors))
    fail(manifest, 'errors debe ser un objeto { codigo: { status, detail } }.');
  for (const [code, entry] of Object.entries(manifest.errors)) {
    if (!ERROR_CODE.test(code))
      fail(manifest, `errors.${code}: el código debe ser minúsculas y cifras separadas por "_".`);
    if (!Number.isInteger(entry?.status) || entry.status < 400 || entry.status > 599)
      fail(manifest, `errors.${code}: status debe ser un código HTTP de error (400 a 599).`);
    if (typeof entry.detail !== 'string' || entry.detail === '')
      fail(manifest, `errors.${code}: falta detail (el texto por defecto).`);
    if (Object.hasOwn(ERROR_CATALOGUE, code)) {
      throw new PluginError(
        'PLUGIN_ERROR_CODE_CLASH',
        manifest.id,
        `el código de error "${code}" ya es del host: elige otro nombre.`,
      );
    }
  }
}

/** Two plugins with one id: the error names both folders when they are known. */
function duplicateId(id: string, where: (string | undefined)[]): PluginError {
  const known = where.filter((w): w is string => w !== undefined);
  const named = known.length === 2 ? ` uno en ${known[0]} y otro en ${known[1]}` : '';
  return new PluginError(
    'PLUGIN_DUPLICATE_ID',
    id,
    `hay dos plugins con el mismo id:${named}. Deja uno solo: quita o mueve uno de los dos paquetes, o arranca desde ` +
      'una carpeta que no tenga el otro en plugins/ o node_modules/.',
  );
}

/** A path with every parameter name replaced, so `/a/:x` and `/a/:y` compare equal. */
const routeShape = (path: string): string => path.replace(/:[a-zA-Z0-9_]+/g, ':');

/**
 * Validates the set: each manifest, no duplicate ids, each provided service offered once, each error code declared
 * once, and every required `uses` provided by some plugin of the set. `shipped`: the manifests of plugins shipped
 * with the host, whose route schemas are not compiled here (see validateManifest). `locations[i]`: where `manifests[i]`
 * came from (a package folder), so a duplicate id names both copies — e.g. the executable's own plugins and a source
 * checkout's `plugins/` in the folder it was started from.
 */
export function validatePluginSet(
  manifests: PluginManifest[],
  shipped: ReadonlySet<PluginManifest> = new Set(),
  locations: readonly (string | undefined)[] = [],
): void {
  /** The index of the first manifest of each id. */
  const ids = new Map<string, number>();
  const providers = new Map<symbol, string>();
  const errorCodes = new Map<string, string>();
  for (const [index, manifest] of manifests.entries()) {
    validateManifest(manifest, !shipped.has(manifest));
    const first = ids.get(manifest.id);
    if (first !== undefined) throw duplicateId(manifest.id, [locations[first], locations[index]]);
    ids.set(manifest.id, index);
    for (const code of Object.keys(manifest.errors ?? {})) {
      const other = errorCodes.get(code);
      if (other)
        throw new PluginError(
          'PLUGIN_ERROR_CODE_CLASH',
          manifest.id,
          `el código de error "${code}" ya lo declara el plugin "${other}".`,
        );
      errorCodes.set(code, manifest.id);
    }
    for (const token of manifest.provides ?? []) {
      const other = providers.get(token);
      if (other)
        throw new PluginError(
          'PLUGIN_MANIFEST_INVALID',
          manifest.id,
          `el servicio "${tokenName(token)}" ya lo proporciona "${other}".`,
        );
      providers.set(token, manifest.id);
    }
  }
  for (const manifest of manifests) {
    for (const use of manifest.uses ?? []) {
      if (!use.optional && !providers.has(use.token)) {
        throw new PluginError(
          'PLUGIN_DEPENDENCY_MISSING',
          manifest.id,
          `necesita el servicio "${tokenName(use.token)}" y ningún plugin cargado lo proporciona.`,
        );
      }
    }
  }
}
