/** The parts of one OpenAPI operation the harnesses need, read from the host's own `/api/openapi.json`. */
export interface Operation {
  method: string;
  /** Path template under `/api`, e.g. `/rag/{espacio}/documents/{archivo}`. */
  path: string;
  /** `public`, `owner`, `space`, `console` or `admin` (`x-cerebro-access`). */
  access: string;
  permission?: 'lee' | 'escribe';
  /** Path parameter names in order. */
  params: string[];
  /** `application/json`, `multipart/form-data`, or undefined when the route takes no body. */
  bodyType?: string;
  bodySchema?: JsonSchema;
  /** Statuses the document declares (besides `default`). */
  documented: Set<number>;
  stream: boolean;
  /** The JSON body field that names the space instead of `{espacio}` (`x-cerebro-espacio-en: body.<field>`). */
  spaceField?: string;
  /** Errors also carry OpenAI's `error` object (the operation's errors use the `ErrorOpenAI` schema). */
  openAiErrors: boolean;
}

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  additionalProperties?: boolean | JsonSchema;
}

interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, unknown>;
  'x-cerebro-access': string;
  'x-cerebro-permiso'?: 'lee' | 'escribe';
  'x-cerebro-stream'?: boolean;
  'x-cerebro-espacio-en'?: string;
}

/** Every operation of the document, so a route added to the host or to a plugin is covered without editing a test. */
export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const [bodyType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        access: op['x-cerebro-access'],
        permission: op['x-cerebro-permiso'],
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        bodyType,
        bodySchema: media?.schema,
        documented: new Set(
          Object.keys(op.responses)
            .filter((s) => /^\d+$/.test(s))
            .map(Number),
        ),
        stream: op['x-cerebro-stream'] === true,
        openAiErrors: JSON.stringify(op.responses).includes('#/components/schemas/ErrorOpenAI'),
        ...(op['x-cerebro-espacio-en'] ? { spaceField: op['x-cerebro-espacio-en'].replace(/^body\./, '') } : {}),
      });
    }
  }
  return operations;
}

/** Fills a path template; each value is percent-encoded unless `raw` says it is already what should be sent. */
export function fillPath(template: string, values: Record<string, string>, raw = false): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return raw ? value : encodeURIComponent(value);
  });
}

export const label = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

export const isWrite = (op: Pick<Operation, 'method'>) => op.method !== 'GET' && op.method !== 'HEAD';
