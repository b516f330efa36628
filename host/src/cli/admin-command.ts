import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isApiError, type Permission } from '@cerebro/sdk';
import type { AdminService } from '../admin/admin-service.js';
import { loadHostConfig } from '../config/host-config.js';
import { resolveToken } from '../kernel/resolve.js';
import { createRootLogger } from '../logging/logger.js';
import { ModuleCatalogToken } from '../admin/module-catalog.js';
import { HostRootTokens, buildHostContainer } from '../main/host-container.js';
import { discoveredSources } from '../main/start-host.js';
import { openDatabase } from '../storage/database.js';
import { backupDatabases } from '../storage/backup.js';
import { migrateHostDatabase } from '../storage/migrate-host.js';
import { HOST_MIGRATIONS } from '../storage/migrations/index.js';
import type { CliIo } from './run-cli.js';

type Flags = Record<string, string | boolean | undefined>;
type Action = { help: string; run: (admin: AdminService, f: Flags) => unknown };

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
const list = (value: unknown): string[] => (typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : []);

/** Every `cerebro admin <resource> <action>`. */
const ACTIONS: Record<string, Action> = {
  'owner create': {
    help: '--name N [--email E] [--credits N]',
    run: (a, f) => a.createOwner({ name: need(f, 'name'), email: f.email as string | undefined, credits: typeof f.credits === 'string' ? integer(f.credits) : undefined }),
  },
  'owner delete': { help: '--id ID', run: (a, f) => (a.deleteOwner(need(f, 'id')), { eliminado: f.id }) },
  'owner read-only': { help: '--id ID --on|--off', run: (a, f) => (a.setOwnerReadOnly(need(f, 'id'), onOff(f)), { propietario: f.id, solo_lectura: onOff(f) }) },
  'space create': {
    help: '--id S --owner O [--modules api,marca,...] [--trial-ends ISO]',
    run: (a, f) => (a.createSpace({ id: need(f, 'id'), ownerId: need(f, 'owner'), modules: list(f.modules), trialEndsAt: f['trial-ends'] as string | undefined }), { espacio: f.id }),
  },
  'space assign': {
    help: '--id S (--owner O | --none)',
    run: (a, f) => (a.assignSpace(need(f, 'id'), f.none ? null : need(f, 'owner')), { espacio: f.id, propietario: f.none ? null : f.owner }),
  },
  'space module': {
    help: '--id S --module M --on|--off',
    run: (a, f) => {
      const on = onOff(f);
      if (on) a.enableModule(need(f, 'id'), need(f, 'module'));
      else a.disableModule(need(f, 'id'), need(f, 'module'));
      return { espacio: f.id, modulo: f.module, habilitado: on };
    },
  },
  'space trial': { help: '--id S (--until ISO | --none)', run: (a, f) => (a.setTrialEnd(need(f, 'id'), f.none ? null : need(f, 'until')), { espacio: f.id }) },
  'space api': { help: '--id S --on|--off', run: (a, f) => (a.setApiEnabled(need(f, 'id'), onOff(f)), { espacio: f.id, api_activa: onOff(f) }) },
  'space read-only': { help: '--id S --on|--off  (el propietario, solo lectura en este espacio)', run: (a, f) => (a.setOwnerReadOnlyOnSpace(need(f, 'id'), onOff(f)), { espacio: f.id }) },
  'account payment': {
    help: '--id C (--paid | --unpaid-since ISO | --suspended)',
    run: (a, f) => (a.setPayment(need(f, 'id'), { unpaidSince: (f['unpaid-since'] as string | undefined) ?? null, suspended: f.suspended === true }), { cuenta: f.id }),
  },
  'account credits': { help: '--id C --amount N', run: (a, f) => ({ cuenta: f.id, saldo: a.addCredits(need(f, 'id'), integer(need(f, 'amount'))) }) },
  'key create': {
    help: '--owner O --name N [--spaces a,b] [--permiso lee|escribe]',
    run: (a, f) => a.issueKey(need(f, 'owner'), need(f, 'name'), list(f.spaces), ((f.permiso as string | undefined) ?? 'escribe') as Permission),
  },
  'session create': { help: '--owner O  (credencial de consola para el propietario)', run: (a, f) => a.issueConsoleSession(need(f, 'owner')) },
  'operator create': { help: '--name N  (credencial para /api/admin)', run: (a, f) => a.issueOperatorCredential(need(f, 'name')) },
};

const STRING_OPTIONS = ['name', 'email', 'credits', 'id', 'owner', 'modules', 'trial-ends', 'module', 'until', 'unpaid-since', 'amount', 'spaces', 'permiso'];
const BOOLEAN_OPTIONS = ['on', 'off', 'none', 'paid', 'suspended', 'json'];
const OPTIONS: Record<string, { type: 'string' | 'boolean' }> = {
  ...Object.fromEntries(STRING_OPTIONS.map((n) => [n, { type: 'string' as const }])),
  ...Object.fromEntries(BOOLEAN_OPTIONS.map((n) => [n, { type: 'boolean' as const }])),
};

function helpText(): string {
  return [
    'Uso: cerebro admin <recurso> <acción> [opciones] [--json]', '',
    ...Object.entries(ACTIONS).map(([name, a]) => `  ${name.padEnd(18)} ${a.help}`),
    `  ${'respaldo'.padEnd(18)} <carpeta nueva>  (copia en línea de todas las bases de datos)`, '',
  ].join('\n');
}

/** `cerebro admin ...`: operator actions straight on the database (safe while the server runs: SQLite WAL). */
export async function runAdmin(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n\n${helpText()}`);
    return 2;
  }
  if (parsed.positionals[0] === 'respaldo') return runBackup(parsed.positionals.slice(1), parsed.values as Flags, io);
  const name = parsed.positionals.slice(0, 2).join(' ');
  const action = ACTIONS[name];
  if (!action) {
    io[name === 'help' || name === '' ? 'stdout' : 'stderr'].write(helpText());
    return name === 'help' || name === '' ? 0 : 2;
  }
  let config;
  let pluginIds: string[];
  try {
    config = loadHostConfig(io.env);
    // The modules an operator may enable are those the server would load with this same environment.
    pluginIds = (await discoveredSources(config)).map((source) => source.definition.manifest.id);
  } catch (err) {
    io.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  }
  const db = openDatabase(join(config.dataDir, 'cerebro.db'));
  try {
    await migrateHostDatabase(db, config.dataDir, { owner: 'host', migrations: HOST_MIGRATIONS });
    const container = buildHostContainer(config, createRootLogger('silent'), db, { now: () => Date.now() });
    resolveToken(container, ModuleCatalogToken).declare(pluginIds);
    const result = action.run(resolveToken(container, HostRootTokens.Admin), parsed.values as Flags);
    io.stdout.write((parsed.values as Flags).json ? `${JSON.stringify(result)}\n` : `${formatHuman(result)}\n`);
    return 0;
  } catch (err) {
    io.stderr.write(`Error: ${isApiError(err) ? describeDetail((err as { detail: unknown }).detail) : (err as Error).message}\n`);
    return 1;
  } finally {
    db.close();
  }
}

/** `cerebro admin respaldo <carpeta>`: online copy of every database, without migrating or opening anything else. */
async function runBackup(args: string[], flags: Flags, io: CliIo): Promise<number> {
  if (args.length !== 1) {
    io.stderr.write('Uso: cerebro admin respaldo <carpeta nueva> [--json]\n');
    return 2;
  }
  try {
    const result = await backupDatabases(loadHostConfig(io.env).dataDir, resolve(args[0]!));
    io.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : `${formatHuman(result)}\n`);
    return 0;
  } catch (err) {
    io.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  }
}

/** Wire field names of the admin service's validation errors, as the CLI's options. */
const OPTION_OF_FIELD: Record<string, string> = {
  nombre: '--name', email: '--email', creditos: '--credits', id: '--id', modulos: '--modules', prueba_hasta: '--until / --trial-ends',
  impagada_desde: '--unpaid-since', cantidad: '--amount', permiso: '--permiso',
};

/** A service error for a terminal: validation issues one per line, named by the option that carried the value. */
function describeDetail(detail: unknown): string {
  if (!Array.isArray(detail)) return String(detail);
  return detail.map((issue: { loc: (string | number)[]; msg: string }) => {
    const field = String(issue.loc[1] ?? '');
    return `${Object.hasOwn(OPTION_OF_FIELD, field) ? OPTION_OF_FIELD[field] : field}: ${issue.msg}`;
  }).join('\n       ');
}

const formatHuman = (value: unknown): string =>
  value && typeof value === 'object'
    ? Object.entries(value).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') || '(todos)' : String(v)}`).join('\n')
    : String(value);
