import { join, resolve } from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import type { Permission } from '@cerebro/sdk';
import type { AdminActions } from '../admin/admin-services.js';
import { loadHostConfig, type HostConfig } from '../config/host-config.js';
import { resolveToken } from '../kernel/resolve.js';
import { createRootLogger } from '../logging/logger.js';
import { ModuleCatalogToken } from '../admin/module-catalog.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { buildHostContainer } from '../main/host-container.js';
import { openSharedBackend } from '../main/shared-backend.js';
import { discoveredSources } from '../main/start-host.js';
import { openDatabase } from '../storage/database.js';
import { backupDataFolder } from '../storage/data-backup.js';
import { pgBackupAdvice } from '../storage/postgres/pg-backup-advice.js';
import { s3BackupAdvice } from '../storage/originals/s3-backup-advice.js';
import { restoreBackup } from '../storage/restore.js';
import { migrateHostDatabase } from '../storage/migrate-host.js';
import { HOST_MIGRATIONS } from '../storage/migrations/index.js';
import { programName } from './program-name.js';
import { formatAdvice } from './advice-output.js';
import { formatHuman, reportError } from './cli-output.js';
import type { CliIo } from './run-cli.js';
import type { DependencyContainer } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import { DirectoryRepositoryToken } from '../storage/port/directory-repository.js';
import { recordCliChange } from './admin-audit.js';
import { auditReading } from './admin-audit-reading.js';
import { parseAdminArgs } from './admin-args.js';

type Flags = Record<string, string | boolean | undefined>;
type Action = { help: string; run: (admin: AdminActions, f: Flags, io: CliIo, c: DependencyContainer) => unknown };

const need = (f: Flags, name: string): string => {
  const value = f[name];
  if (typeof value !== 'string' || !value) throw new Error(`Falta --${name}.`);
  return value;
};
const onOff = (f: Flags): boolean => {
  if (f.on === f.off) throw new Error('Indica --on o --off.');
  return f.on === true;
};
/** Only digits (and a sign) are a number here: `Number('')` is 0 and `Number('0x10')` 16. */
const integer = (text: string): number => (/^-?\d+$/.test(text) ? Number(text) : Number.NaN);
/** A key limit flag: absent → undefined (kept), `ninguno` → null (removed), otherwise the integer. */
const keyLimit = (f: Flags, flag: string): number | null | undefined =>
  f[flag] === undefined ? undefined : f[flag] === 'ninguno' ? null : integer(String(f[flag]));
/** `--limit` / `--offset` as the admin service's paging (it checks the ranges). */
const paging = (f: Flags): { limite?: number; desde?: number } => ({
  ...(typeof f.limit === 'string' ? { limite: integer(f.limit) } : {}),
  ...(typeof f.offset === 'string' ? { desde: integer(f.offset) } : {}),
});
const list = (value: unknown): string[] =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** The first line of standard input (a password piped in, never typed on the command line where `ps` shows it). */
async function firstLine(io: CliIo): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin ?? process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** The address owners reach the service at, for sign-in links: CEREBRO_PUBLIC_URL, else the listen address. */
function publicOrigin(io: CliIo): string {
  const config = loadHostConfig(io.env);
  return config.publicUrl || `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
}

/** Every `cerebro admin <resource> <action>`. */
const ACTIONS: Record<string, Action> = {
  'owner create': {
    help: '--name N [--email E] [--credits N]',
    run: (a, f) =>
      a.createOwner({
        name: need(f, 'name'),
        email: f.email as string | undefined,
        credits: typeof f.credits === 'string' ? integer(f.credits) : undefined,
      }),
  },
  'owner delete': {
    help: '--id ID',
    run: async (a, f) => (await a.deleteOwner(need(f, 'id')), { eliminado: f.id }),
  },
  'owner read-only': {
    help: '--id ID --on|--off',
    run: async (a, f) => (
      await a.setOwnerReadOnly(need(f, 'id'), onOff(f)), { propietario: f.id, solo_lectura: onOff(f) }
    ),
  },
  'space create': {
    help: '--id S --owner O [--modules api,marca,...] [--trial-ends ISO]',
    run: async (a, f) => (
      await a.createSpace({
        id: need(f, 'id'),
        ownerId: need(f, 'owner'),
        modules: list(f.modules),
        trialEndsAt: f['trial-ends'] as string | undefined,
      }),
      { espacio: f.id }
    ),
  },
  'space assign': {
    help: '--id S (--owner O | --none)',
    run: async (a, f) => (
      await a.assignSpace(need(f, 'id'), f.none ? null : need(f, 'owner')),
      { espacio: f.id, propietario: f.none ? null : f.owner }
    ),
  },
  'space module': {
    help: '--id S --module M --on|--off',
    run: async (a, f) => {
      const on = onOff(f);
      if (on) await a.enableModule(need(f, 'id'), need(f, 'module'));
      else await a.disableModule(need(f, 'id'), need(f, 'module'));
      return { espacio: f.id, modulo: f.module, habilitado: on };
    },
  },
  'space trial': {
    help: '--id S (--until ISO | --none)',
    run: async (a, f) => (await a.setTrialEnd(need(f, 'id'), f.none ? null : need(f, 'until')), { espacio: f.id }),
  },
  'space api': {
    help: '--id S --on|--off',
    run: async (a, f) => (await a.setApiEnabled(need(f, 'id'), onOff(f)), { espacio: f.id, api_activa: onOff(f) }),
  },
  'space read-only': {
    help: '--id S --on|--off  (el propietario, solo lectura en este espacio)',
    run: async (a, f) => (await a.setOwnerReadOnlyOnSpace(need(f, 'id'), onOff(f)), { espacio: f.id }),
  },
  'account payment': {
    help: '--id C (--paid | --unpaid-since ISO | --suspended)',
    run: async (a, f) => (
      await a.setPayment(need(f, 'id'), {
        unpaidSince: (f['unpaid-since'] as string | undefined) ?? null,
        suspended: f.suspended === true,
      }),
      { cuenta: f.id }
    ),
  },
  'account quota': {
    help: '--id C [--bytes N|defecto] [--documents N|defecto]  (cuota de almacenamiento; 0: sin límite)',
    run: async (a, f) => {
      const value = (flag: string) =>
        f[flag] === undefined ? undefined : f[flag] === 'defecto' ? null : integer(f[flag] as string);
      const stored = await a.setQuota(need(f, 'id'), { bytes: value('bytes'), documents: value('documents') });
      return { cuenta: f.id, max_bytes: stored.bytes, max_documentos: stored.documents };
    },
  },
  'account credits': {
    help: '--id C --amount N  (N negativo quita créditos: --amount -50)',
    run: async (a, f) => ({ cuenta: f.id, saldo: await a.addCredits(need(f, 'id'), integer(need(f, 'amount'))) }),
  },
  'key create': {
    help: '--owner O --name N [--spaces a,b] [--permiso lee|escribe] [--limit N] [--quota N]  (límite por minuto y cuota diaria propios de la clave)',
    run: (a, f) =>
      a.issueKey(
        need(f, 'owner'),
        need(f, 'name'),
        list(f.spaces),
        ((f.permiso as string | undefined) ?? 'escribe') as Permission,
        null,
        { perMinute: keyLimit(f, 'limit') ?? null, daily: keyLimit(f, 'quota') ?? null },
      ),
  },
  'key limits': {
    help: '--id K [--limit N|ninguno] [--quota N|ninguno]  (límite por minuto y cuota diaria propios; ninguno: solo los del espacio)',
    run: (a, f) => a.setKeyLimits(need(f, 'id'), { perMinute: keyLimit(f, 'limit'), daily: keyLimit(f, 'quota') }),
  },
  'owner list': {
    help: '[--limit N] [--offset N]  (propietarios, con su cuenta y sus espacios)',
    run: (a, f) => a.listOwners(paging(f)),
  },
  'owner show': { help: '--id ID', run: (a, f) => a.owner(need(f, 'id')) },
  'space list': {
    help: '[--owner O] [--limit N] [--offset N]',
    run: (a, f) => a.listSpaces(paging(f), f.owner === undefined ? undefined : need(f, 'owner')),
  },
  'space show': { help: '--id S', run: (a, f) => a.space(need(f, 'id')) },
  'key list': {
    help: '--owner O [--limit N] [--offset N]  (también las revocadas; nunca el secreto)',
    run: (a, f) => a.listKeys(need(f, 'owner'), paging(f)),
  },
  'key revoke': {
    help: '--id K  (la clave responde 401 desde la petición siguiente)',
    run: (a, f) => a.revokeKey(need(f, 'id')),
  },
  'session create': {
    help: '--owner O  (credencial de consola para el propietario)',
    run: (a, f) => a.issueConsoleSession(need(f, 'owner')),
  },
  'owner email': {
    help: '--id ID --email E  (el email con el que entra en Studio)',
    run: (a, f) => a.setOwnerEmail(need(f, 'id'), need(f, 'email')),
  },
  'owner password': {
    help: '--id ID [--stdin]  (contraseña de Studio: generada y mostrada una vez, o leída de la entrada estándar; cierra sus sesiones)',
    run: async (a, f, io) => ({
      id: f.id,
      ...(await a.setOwnerPassword(need(f, 'id'), f.stdin ? await firstLine(io) : undefined)),
    }),
  },
  'owner link': {
    help: '--id ID  (enlace de entrada a Studio de un solo uso, 30 minutos; base: CEREBRO_PUBLIC_URL)',
    run: (a, f, io) => a.issueSignInLink(need(f, 'id'), publicOrigin(io)),
  },
  'owner spaces': {
    help: '--id ID [--max N|defecto]  (cuántos espacios puede tener y seguir creando desde Studio; 0: solo el operador los crea; defecto: CEREBRO_OWNER_MAX_SPACES; sin --max, lo muestra)',
    run: (_a, f, _io, c) => {
      const spaces = resolveToken(c, HostRootTokens.OwnSpaces);
      if (f.max === undefined) return spaces.operatorAllowance(need(f, 'id'));
      return spaces.setAllowance(need(f, 'id'), f.max === 'defecto' ? null : integer(String(f.max)));
    },
  },
  'operator create': {
    help: '--name N  (credencial para /api/admin)',
    run: (a, f) => a.issueOperatorCredential(need(f, 'name')),
  },
  auditoria: {
    help: '[--owner O] [--space S] [--actor ID|EMAIL] [--actor-kind persona|clave|operador] [--action A|prefijo.] [--since ISO] [--until ISO] [--limit N] [--cursor C] [--jsonl]  (registro de actividad de toda la plataforma; --jsonl: todo, un evento por línea)',
    run: (_a, f, io, c) => auditReading(resolveToken(c, HostTokens.Audit), f, io),
  },
};

const STRING_OPTIONS = [
  'name',
  'email',
  'credits',
  'id',
  'owner',
  'modules',
  'trial-ends',
  'module',
  'until',
  'unpaid-since',
  'amount',
  'spaces',
  'permiso',
  'limit',
  'offset',
  'bytes',
  'documents',
  'quota',
  'space',
  'actor',
  'actor-kind',
  'action',
  'since',
  'cursor',
  'max',
];
const BOOLEAN_OPTIONS = ['on', 'off', 'none', 'paid', 'suspended', 'json', 'crear', 'stdin', 'jsonl'];
const OPTIONS: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
  ...Object.fromEntries(STRING_OPTIONS.map((n) => [n, { type: 'string' as const }])),
  ...Object.fromEntries(BOOLEAN_OPTIONS.map((n) => [n, { type: 'boolean' as const }])),
  help: { type: 'boolean', short: 'h' },
};

const COMMON = [
  '',
  'Opciones comunes: --json (resultado y errores en JSON; un error es {"detail": ...} en stderr),',
  '  --crear (crea la base de datos si CEREBRO_DATA_DIR no tiene ninguna; sin ella la orden se niega).',
  'Con CEREBRO_DATABASE_URL las órdenes actúan sobre PostgreSQL, la base de datos de los servidores.',
  '',
];

function helpText(): string {
  return [
    'Uso: cerebro admin <recurso> <acción> [opciones] [--json] [--crear]',
    '',
    ...Object.entries(ACTIONS).map(([name, a]) => `  ${name.padEnd(18)} ${a.help}`),
    `  ${'respaldo'.padEnd(18)} <carpeta nueva>  (respaldo completo en línea: bases de datos, originales y archivos de los plugins)`,
    `  ${'restaurar'.padEnd(18)} <respaldo> <carpeta nueva o vacía>  (comprueba el respaldo y crea con él una carpeta de datos)`,
    ...COMMON,
  ].join('\n');
}

const actionHelp = (name: string, action: Action): string =>
  [`Uso: cerebro admin ${name} ${action.help}`, ...COMMON].join('\n');

/**
 * `cerebro admin ...`: operator actions straight on the database the server uses (safe while it runs: SQLite WAL, or
 * PostgreSQL with CEREBRO_DATABASE_URL).
 */
export async function runAdmin(args: string[], io: CliIo): Promise<number> {
  const json = args.includes('--json');
  let parsed;
  try {
    parsed = parseAdminArgs(args, OPTIONS);
  } catch (err) {
    if (json) reportError(io, true, err);
    else io.stderr.write(`${(err as Error).message}\n\n${helpText()}`);
    return 2;
  }
  const flags = parsed.values as Flags;
  if (parsed.positionals[0] === 'respaldo' && !flags.help) return runBackup(parsed.positionals.slice(1), flags, io);
  if (parsed.positionals[0] === 'restaurar' && !flags.help) return runRestore(parsed.positionals.slice(1), flags, io);
  const name = parsed.positionals.slice(0, 2).join(' ');
  const action = ACTIONS[name];
  if (flags.help || name === 'help' || name === '') {
    io.stdout.write(action ? actionHelp(name, action) : helpText());
    return 0;
  }
  if (!action) {
    if (json) reportError(io, true, new Error(`Acción desconocida: ${name}.`));
    else io.stderr.write(`Acción desconocida: ${name}\n\n${helpText()}`);
    return 2;
  }
  let config;
  let pluginIds: string[];
  try {
    config = loadHostConfig(io.env);
    // The modules an operator may enable are those the server would load with this same environment.
    const { sources, failed } = await discoveredSources(config);
    pluginIds = [...sources.map((source) => source.definition.manifest.id), ...failed.map((failure) => failure.id)];
  } catch (err) {
    reportError(io, json, err);
    return 1;
  }
  let opened: AdminStore;
  try {
    opened = await openAdminStore(config, flags);
  } catch (err) {
    reportError(io, json, err);
    return 1;
  }
  try {
    const { container } = opened;
    resolveToken(container, ModuleCatalogToken).declare(pluginIds);
    const result = await action.run(resolveToken(container, HostRootTokens.Admin), flags, io, container);
    await recordCliChange(
      name,
      flags,
      result,
      resolveToken(container, HostTokens.Audit),
      resolveToken(container, DirectoryRepositoryToken),
    );
    // An export has written its lines already.
    if (result !== undefined) io.stdout.write(json ? `${JSON.stringify(result)}\n` : `${formatHuman(result)}\n`);
    return 0;
  } catch (err) {
    reportError(io, json, err, describeDetail);
    return 1;
  } finally {
    await opened.close();
  }
}

/** The host's container over the database the server uses, and how to let it go. */
interface AdminStore {
  container: DependencyContainer;
  close(): Promise<void>;
}

/**
 * With CEREBRO_DATABASE_URL, the operator's actions run on PostgreSQL (migrated under the hosts' lock, like a
 * starting server) and no SQLite file is opened; otherwise on the data folder's SQLite file, which must exist
 * unless `--crear` says to create it.
 */
async function openAdminStore(config: HostConfig, flags: Flags): Promise<AdminStore> {
  const log = createRootLogger('silent');
  const clock = { now: () => Date.now() };
  if (config.databaseUrl) {
    const shared = await openSharedBackend(config, log);
    return { container: buildHostContainer(config, log, null, clock, shared), close: () => shared.close() };
  }
  const file = join(config.dataDir, 'cerebro.db');
  // A mistyped CEREBRO_DATA_DIR (or a command run from the wrong directory) would otherwise create an empty
  // database and act on it, and the operator would wonder where everything went.
  if (!existsSync(file) && !flags.crear)
    throw new Error(
      `No hay base de datos en ${config.dataDir} (CEREBRO_DATA_DIR). Revisa la variable, o añade --crear para crear una nueva.`,
    );
  mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(file);
  try {
    await migrateHostDatabase(db, config.dataDir, { owner: 'host', migrations: HOST_MIGRATIONS });
  } catch (err) {
    db.close();
    throw err;
  }
  return {
    container: buildHostContainer(config, log, db, clock),
    close: async () => {
      db.close();
    },
  };
}

/**
 * `cerebro admin respaldo <carpeta>`: self-contained online backup (databases, originals, plugin files), without
 * migrating or opening anything else.
 */
async function runBackup(args: string[], flags: Flags, io: CliIo): Promise<number> {
  if (args.length !== 1) {
    io.stderr.write('Uso: cerebro admin respaldo <carpeta nueva> [--json]\n');
    return 2;
  }
  return report(
    io,
    flags,
    async () => {
      const config = loadHostConfig(io.env);
      // On PostgreSQL the server's tools take the backup: the advice is the answer (exit 0), nothing is copied.
      const target = resolve(args[0]!);
      // Originals in an S3-compatible store: its versioning keeps them; the advice names the databases' tools too.
      if (config.originals.kind === 's3')
        return s3BackupAdvice(config.originals.location, config.databaseUrl, config.dataDir, target);
      if (config.databaseUrl) return pgBackupAdvice(config.databaseUrl, target);
      const originalsRoot = config.originals.kind === 'carpeta' ? config.originals.dir : config.dataDir;
      return backupDataFolder(config.dataDir, target, undefined, originalsRoot);
    },
    humanBackup,
  );
}

/** A backup's summary as `field: value` lines; advice (PostgreSQL, S3) with its commands one per line, as run. */
const humanBackup = (result: object): string =>
  'postgresql' in result || 's3' in result ? formatAdvice(result) : formatHuman(result);

/** `cerebro admin restaurar <respaldo> <carpeta>`: checks the backup, then writes a new data folder from it. */
async function runRestore(args: string[], flags: Flags, io: CliIo): Promise<number> {
  if (args.length !== 2) {
    io.stderr.write('Uso: cerebro admin restaurar <respaldo> <carpeta nueva o vacía> [--json]\n');
    return 2;
  }
  return report(io, flags, async () => {
    const result = await restoreBackup(resolve(args[0]!), resolve(args[1]!), programName(io.env));
    if (!flags.json)
      io.stderr.write(`Respaldo comprobado y restaurado. Para arrancar sobre la copia:\n  ${result.arrancar}\n`);
    return result;
  });
}

async function report(
  io: CliIo,
  flags: Flags,
  work: () => Promise<unknown>,
  human: (result: object) => string = formatHuman,
): Promise<number> {
  try {
    const result = await work();
    io.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : `${human(result as object)}\n`);
    return 0;
  } catch (err) {
    reportError(io, flags.json === true, err);
    return 1;
  }
}

/** Wire field names of the admin service's validation errors, as the CLI's options. */
const OPTION_OF_FIELD: Record<string, string> = {
  nombre: '--name',
  email: '--email',
  creditos: '--credits',
  id: '--id',
  modulos: '--modules',
  prueba_hasta: '--until / --trial-ends',
  impagada_desde: '--unpaid-since',
  cantidad: '--amount',
  permiso: '--permiso',
  limite: '--limit',
  desde: '--offset',
  clave: '--stdin',
  max_espacios: '--max',
};

/** A service error for a terminal: validation issues one per line, named by the option that carried the value. */
function describeDetail(detail: unknown): string {
  if (!Array.isArray(detail)) return String(detail);
  return detail
    .map((issue: { loc: (string | number)[]; msg: string }) => {
      const field = String(issue.loc[1] ?? '');
      return `${Object.hasOwn(OPTION_OF_FIELD, field) ? OPTION_OF_FIELD[field] : field}: ${issue.msg}`;
    })
    .join('\n       ');
}
