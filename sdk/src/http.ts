import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Logger } from './services/logger.js';

/** One validated query parameter. */
export type QueryValue = string | number | boolean | string[];

export type Permission = 'lee' | 'escribe';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The space a module request is about, as the host resolved it for this very request. */
export interface SpaceContext {
  readonly id: string;
  readonly accountId: string;
  readonly modules: readonly string[];
}

/**
 * Who is calling, as the host authenticated them. Read-only: plugins cannot change authorization. `visitor`
 * (sdk 2.1): anyone, on a route the manifest declares `public`; `ownerId` is then the space's owner and
 * `permission` is `lee`.
 */
export interface CallerContext {
  readonly kind: 'key' | 'console' | 'visitor';
  readonly ownerId: string;
  /** Id of the service key, for key callers. */
  readonly keyId?: string;
  /** Effective permission on this space: the stricter of the key's and the owner's. */
  readonly permission: Permission;
}

/** What a plugin handler receives. The host has already run the whole access pipeline. */
export interface ModuleRequest<Body = unknown, Query = Readonly<Record<string, QueryValue>>> {
  /** Request id, also sent back in the `X-Request-Id` header. */
  readonly id: string;
  readonly space: SpaceContext;
  readonly caller: CallerContext;
  /** Path parameters (decoded), without `espacio`. */
  readonly params: Readonly<Record<string, string>>;
  /** The query parameters the route declares, validated and converted (numbers, booleans, defaults filled). */
  readonly query: Query;
  /** Parsed JSON body for `body: 'json'` routes; undefined otherwise. */
  readonly body: Body;
  readonly headers: IncomingHttpHeaders;
  /** The raw request, for streamed bodies (`body: 'multipart'` routes read it through the upload service). */
  readonly raw: IncomingMessage;
  /** Aborted when the client goes away: stop work that nobody will read. */
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** A response other than "200 with this JSON body". */
export class Reply {
  private constructor(
    readonly status: number,
    readonly body: Buffer | string | Readable | undefined,
    readonly headers: Readonly<Record<string, string>>,
    readonly json: boolean,
  ) {}

  /** JSON body with a chosen status (201 on creation, for example). */
  static json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
    return new Reply(status, JSON.stringify(value), headers, true);
  }

  /** Raw bytes or a stream with its content type (downloads, HTML). */
  static send(
    status: number,
    body: Buffer | string | Readable,
    contentType: string,
    headers: Record<string, string> = {},
  ): Reply {
    return new Reply(status, body, { ...headers, 'content-type': contentType }, false);
  }

  /** No body (204). */
  static empty(status = 204, headers: Record<string, string> = {}): Reply {
    return new Reply(status, undefined, headers, false);
  }
}

/**
 * A route handler. Return a value to answer 200 with it as JSON, a `Reply` for anything else,
 * or throw an `ApiError` (see `apiError`) for an error response.
 */
export type RouteHandler = (req: ModuleRequest<any>) => unknown | Promise<unknown>;
