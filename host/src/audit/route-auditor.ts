import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import type { Caller } from '../access/caller.js';
import type { AuditNote, RequestContext } from '../http/request-context.js';
import { type HostRoute, routeLabel } from '../http/route.js';
import { type DirectoryRepository, DirectoryRepositoryToken } from '../storage/port/directory-repository.js';
import type { OwnerLogins } from '../studio/studio-services.js';
import { type MemberRepository, MemberRepositoryToken } from '../storage/port/member-repository.js';
import type { AuditActor, AuditTrail, RouteAuditHook, RouteAuditing } from './audit-services.js';
import { answerObject } from './audit-notes.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether two settings objects hold the same values (as the log would store them). */
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The path parameters of a route pattern, in order (`/api/mod/ventas/:espacio/productos/:producto`). */
const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** What a route parameter names, when the route does not say: `:id` under `/tokens` is a key. */
function kindOf(route: HostRoute, param: string): string {
  if (param !== 'id') return param;
  if (/\/(tokens|claves)(\/|$)/.test(route.path)) return 'clave';
  if (/\/propietarios\//.test(route.path)) return 'propietario';
  if (/\/sesiones\//.test(route.path)) return 'sesion';
  return 'id';
}

/**
 * Records every successful write of the pipeline in the audit log: who (the caller as the pipeline authenticated
 * it), what (the route's declared action), on what (its path parameter, or the id of what it created), where (space
 * and owner), from which address (the client IP under `CEREBRO_TRUST_PROXY`), and for settings routes their
 * values before and after. Plugins' routes are recorded the same way without doing anything. A route's `describe`
 * may say a successful answer changed nothing (an upload whose every file was refused): then there is no event.
 */
@injectable()
export class RouteAuditor implements RouteAuditing {
  constructor(
    @inject(HostTokens.Audit) private readonly trail: AuditTrail,
    @inject(DirectoryRepositoryToken) private readonly directory: DirectoryRepository,
    @inject(HostTokens.Logins) private readonly logins: OwnerLogins,
    @inject(MemberRepositoryToken) private readonly members: MemberRepository,
  ) {}

  hookFor(route: HostRoute, readBack?: HostRoute): RouteAuditHook | undefined {
    if (route.audit === false || !WRITES.has(route.method)) return undefined;
    const declared = route.audit ?? {};
    const params = pathParams(route.path).filter((p) => p !== 'espacio');
    const targetParam = declared.target ?? params.at(-1);
    const label = routeLabel(route);
    const snapshots = declared.snapshot === true && readBack !== undefined;
    const snapshot = async (ctx: RequestContext): Promise<unknown> => {
      if (!readBack) return null;
      // The GET of the same path, with this request's verdict (space, caller); its query defaults are enough.
      const reading = Object.create(ctx) as RequestContext;
      reading.body = undefined;
      try {
        return answerObject(await readBack.handler(reading)) ?? null;
      } catch {
        return null; // nothing there yet (404), or not readable: the event says so by a null
      }
    };
    const record = async (ctx: RequestContext, result: unknown, before: unknown): Promise<void> => {
      const described = declared.describe?.(ctx, result);
      if (described === null) return; // the route says this answer changed nothing
      const note: AuditNote = { ...ctx.audit, ...described };
      const actor = note.actor ?? (ctx.caller && (await this.actorOf(ctx.caller)));
      if (!actor) return; // a public route that named nobody (nothing happened on anyone's behalf)
      const action =
        note.action ??
        (typeof declared.action === 'function' ? declared.action(ctx) : declared.action) ??
        route.operationId;
      const created = answerObject(result)?.id;
      const target =
        note.target ??
        (targetParam && ctx.params[targetParam] !== undefined
          ? { kind: declared.targetKind ?? kindOf(route, targetParam), id: ctx.params[targetParam]! }
          : typeof created === 'string'
            ? { kind: declared.targetKind ?? route.tag, id: created }
            : null);
      const spaceId = note.spaceId ?? ctx.space?.id ?? ctx.params.espacio ?? null;
      const previous = note.before !== undefined ? note.before : snapshots ? before : undefined;
      // A settings route's answer is what it stored; one that answers nothing (a 204) is read back.
      const after = note.after ?? (snapshots ? (answerObject(result) ?? (await snapshot(ctx))) : undefined);
      // The log says who changed what: a write that left everything as it was (a PATCH of {}) changed nothing.
      if (previous != null && after != null && sameJson(previous, after)) return;
      await this.trail.record({
        action,
        actor,
        target,
        ownerId: note.ownerId ?? (await this.ownerOf(ctx, spaceId, target)),
        spaceId,
        ip: ctx.ip,
        requestId: ctx.id,
        route: label,
        before: previous,
        after,
        details: note.details ?? null,
      });
    };
    return {
      snapshots,
      snapshot,
      record: (ctx, result, before) =>
        record(ctx, result, before).catch((err: unknown) =>
          ctx.log.error({ err, ruta: label }, 'no se pudo registrar un evento de auditoría'),
        ),
    };
  }

  private async actorOf(caller: Caller): Promise<AuditActor> {
    switch (caller.kind) {
      case 'key':
        return { kind: 'clave', id: caller.key.id, email: null, name: caller.key.name };
      case 'console': {
        const profile = await this.logins.profile(caller.ownerId).catch(() => undefined);
        return { kind: 'persona', id: caller.ownerId, email: profile?.email ?? null, name: null };
      }
      case 'member': {
        const member = await this.members.byId(caller.memberId).catch(() => undefined);
        return { kind: 'persona', id: caller.memberId, email: member?.email ?? null, name: null };
      }
      case 'operator':
        return { kind: 'operador', id: caller.operatorId, email: null, name: null };
    }
  }

  /**
   * The owner the change concerns: the caller's, or for the operator (and a member, who may work for several
   * owners) the owner of what it changed.
   */
  private async ownerOf(
    ctx: RequestContext,
    spaceId: string | null,
    target: { kind: string; id: string } | null,
  ): Promise<string | null> {
    const caller = ctx.caller;
    if (caller && caller.kind !== 'operator' && caller.kind !== 'member') return caller.ownerId;
    const params = ctx.params;
    if (spaceId) return (await this.directory.space(spaceId))?.row.owner_id ?? null;
    // A key a member created, limited or revoked is its owner's event.
    if (target?.kind === 'clave') return (await this.directory.key(target.id))?.owner_id ?? null;
    if (params.cuenta) return (await this.directory.account(params.cuenta))?.owner_id ?? null;
    if (params.id && ctx.req.url?.includes('/propietarios/')) return params.id;
    if (params.id && ctx.req.url?.includes('/claves/')) return (await this.directory.key(params.id))?.owner_id ?? null;
    return null;
  }
}
