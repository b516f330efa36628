import { userInfo } from 'node:os';
import type { AuditTrail } from '../audit/audit-services.js';
import type { DirectoryRepository } from '../storage/port/directory-repository.js';

type Flags = Record<string, string | boolean | undefined>;

/** What one `cerebro admin` change is in the audit log (the request pipeline does not see the command line). */
interface CliChange {
  action: string;
  target?: { kind: string; id: string };
  ownerId?: string;
  spaceId?: string;
  accountId?: string;
  keyId?: string;
  details?: Record<string, unknown>;
}

const str = (value: unknown): string => String(value ?? '');
const idOf = (result: unknown): string => str((result as { id?: unknown } | undefined)?.id);

/** The audit event of each changing action, by its name; reading actions have none. */
export const CLI_CHANGES: Record<string, (f: Flags, result: unknown) => CliChange | undefined> = {
  'owner create': (_f, r) => ({
    action: 'propietario.creado',
    target: { kind: 'propietario', id: idOf(r) },
    ownerId: idOf(r),
  }),
  'owner delete': (f) => ({ action: 'propietario.eliminado', ownerId: str(f.id) }),
  'owner read-only': (f) => ({
    action: 'propietario.modificado',
    ownerId: str(f.id),
    details: { solo_lectura: f.on === true },
  }),
  'owner email': (f) => ({ action: 'propietario.modificado', ownerId: str(f.id), details: { email: f.email } }),
  'owner password': (f) => ({ action: 'propietario.clave_restablecida', ownerId: str(f.id) }),
  'owner link': (f) => ({ action: 'propietario.enlace_emitido', ownerId: str(f.id) }),
  'space create': (f) => ({
    action: 'espacio.creado',
    target: { kind: 'espacio', id: str(f.id) },
    spaceId: str(f.id),
    ownerId: str(f.owner),
    details: { modulos: f.modules ?? null },
  }),
  'space assign': (f) => ({
    action: 'espacio.modificado',
    spaceId: str(f.id),
    details: { propietario: f.none ? null : f.owner },
  }),
  'space module': (f) => ({
    action: f.on === true ? 'modulo.activado' : 'modulo.desactivado',
    target: { kind: 'modulo', id: str(f.module) },
    spaceId: str(f.id),
  }),
  'space trial': (f) => ({
    action: 'espacio.modificado',
    spaceId: str(f.id),
    details: { prueba_hasta: f.none ? null : f.until },
  }),
  'space api': (f) => ({ action: 'espacio.modificado', spaceId: str(f.id), details: { api_activa: f.on === true } }),
  'space read-only': (f) => ({
    action: 'espacio.modificado',
    spaceId: str(f.id),
    details: { solo_lectura: f.on === true },
  }),
  'account payment': (f) => ({
    action: 'cuenta.modificada',
    target: { kind: 'cuenta', id: str(f.id) },
    accountId: str(f.id),
    details: { impagada_desde: f['unpaid-since'] ?? null, suspendida: f.suspended === true },
  }),
  'account quota': (f) => ({
    action: 'cuenta.cuota_modificada',
    target: { kind: 'cuenta', id: str(f.id) },
    accountId: str(f.id),
    details: { max_bytes: f.bytes ?? null, max_documentos: f.documents ?? null },
  }),
  'account credits': (f) => ({
    action: 'creditos.anadidos',
    target: { kind: 'cuenta', id: str(f.id) },
    accountId: str(f.id),
    details: { cantidad: Number(f.amount) },
  }),
  'key create': (f, r) => ({
    action: 'clave.creada',
    target: { kind: 'clave', id: idOf(r) },
    ownerId: str(f.owner),
    details: { nombre: f.name, espacios: f.spaces ?? null, permiso: f.permiso ?? 'escribe' },
  }),
  'key limits': (f) => ({
    action: 'clave.limites_modificados',
    target: { kind: 'clave', id: str(f.id) },
    keyId: str(f.id),
    details: { limite_por_minuto: f.limit ?? null, cuota_diaria: f.quota ?? null },
  }),
  'key revoke': (f) => ({ action: 'clave.revocada', target: { kind: 'clave', id: str(f.id) }, keyId: str(f.id) }),
  'owner spaces': (f) =>
    f.max === undefined
      ? undefined
      : {
          action: 'propietario.cupo_espacios_modificado',
          target: { kind: 'propietario', id: str(f.id) },
          ownerId: str(f.id),
          details: { max_espacios: f.max === 'defecto' ? null : Number(f.max) },
        },
  'session create': (f) => ({ action: 'sesion.emitida', ownerId: str(f.owner) }),
  'operator create': (_f, r) => ({ action: 'operador.creado', target: { kind: 'operador', id: idOf(r) } }),
};

/** The local operator: no credential is used on the command line, so the actor is `cli` and the system user. */
function localOperator(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

/** Records a successful `cerebro admin` change, with the owner it concerns looked up where the flags do not say. */
export async function recordCliChange(
  name: string,
  flags: Flags,
  result: unknown,
  trail: AuditTrail,
  directory: DirectoryRepository,
): Promise<void> {
  const describe = CLI_CHANGES[name];
  if (!describe) return;
  const change = describe(flags, result);
  if (!change) return; // only read
  const ownerId =
    change.ownerId ??
    (change.spaceId ? (await directory.space(change.spaceId))?.row.owner_id : undefined) ??
    (change.accountId ? (await directory.account(change.accountId))?.owner_id : undefined) ??
    (change.keyId ? (await directory.key(change.keyId))?.owner_id : undefined) ??
    null;
  await trail.record({
    action: change.action,
    actor: { kind: 'operador', id: 'cli', email: null, name: localOperator() },
    target: change.target ?? null,
    ownerId,
    spaceId: change.spaceId ?? null,
    route: null,
    details: change.details ?? null,
  });
}
