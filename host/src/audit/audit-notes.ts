import { Reply } from '@cerebro/sdk';
import { parseCredential } from '../access/credentials.js';
import type { AuditNote, RequestContext } from '../http/request-context.js';

/** A handler's JSON answer as an object (plain value or `Reply.json`). */
export function answerObject(result: unknown): Record<string, unknown> | undefined {
  if (result instanceof Reply) {
    if (!result.json || typeof result.body !== 'string') return undefined;
    try {
      const parsed: unknown = JSON.parse(result.body);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : undefined;
}

/**
 * A key just issued: its id, and its record as answered without the secret (the redaction hides the `token`
 * field, which holds it).
 */
export function issuedKey(_ctx: RequestContext, result: unknown): AuditNote | undefined {
  const key = answerObject(result)?.token;
  if (typeof key !== 'object' || key === null) return undefined;
  const record = key as Record<string, unknown>;
  const id =
    typeof record.id === 'string'
      ? record.id
      : typeof record.token === 'string'
        ? parseCredential(record.token)?.id
        : undefined;
  return id ? { target: { kind: 'clave', id }, after: record } : undefined;
}

/**
 * The names of the files an upload stored or refused (never their content). An upload that stored none (every file
 * refused, e.g. for its name) answers 202 with each refusal but changed nothing: no event, as for a refused request.
 */
export function uploadedNames(_ctx: RequestContext, result: unknown): AuditNote | null | undefined {
  const documents = answerObject(result)?.documentos;
  if (!Array.isArray(documents)) return undefined;
  if (documents.every((d) => (d as Record<string, unknown>).estado === 'rechazado')) return null;
  return {
    details: {
      documentos: documents.map((d) => {
        const doc = d as Record<string, unknown>;
        return { id: doc.id ?? null, nombre: doc.nombre, estado: doc.estado };
      }),
    },
  };
}

/** The validated JSON body of an operator's change (amounts, states, quotas: no secrets there). */
export const bodyDetails = (ctx: RequestContext): AuditNote | undefined =>
  typeof ctx.body === 'object' && ctx.body !== null ? { details: ctx.body as Record<string, unknown> } : undefined;

/** An owner the operator created: the event is in that owner's log too. */
export function createdOwner(_ctx: RequestContext, result: unknown): AuditNote | undefined {
  const id = answerObject(result)?.id;
  return typeof id === 'string' ? { ownerId: id, target: { kind: 'propietario', id } } : undefined;
}

/** A space the operator created (named in the body, not the path): its owner's and its own event. */
export function createdSpace(ctx: RequestContext): AuditNote | undefined {
  const body = ctx.body as { id?: unknown; propietario?: unknown; modulos?: unknown } | undefined;
  if (typeof body?.id !== 'string') return undefined;
  return {
    spaceId: body.id,
    target: { kind: 'espacio', id: body.id },
    ...(typeof body.propietario === 'string' ? { ownerId: body.propietario } : {}),
    details: { modulos: body.modulos ?? null },
  };
}

/** A profile change that sets a new password is recorded as such (its value never is). */
export const profileAction = (ctx: RequestContext): string =>
  (ctx.body as { clave_nueva?: unknown } | undefined)?.clave_nueva !== undefined
    ? 'perfil.clave_cambiada'
    : 'perfil.modificado';
