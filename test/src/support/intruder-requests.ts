import { multipart } from './multipart.js';
import { fillPath, type JsonSchema, type Operation } from './openapi-operations.js';
import type { RawRequest } from './raw-http.js';
import type { SeededSpace } from './tenant.js';

/** Whose data an intruder aims at: a space it must not reach, with that space's ids. */
export interface Victim {
  name: string;
  seeded: SeededSpace;
  /** Ids of keys that reach only the victim's space. */
  keyIds: string[];
  /** The victim's account, when it is not also the intruder's. */
  accountId?: string;
}

/** One intruding request and what it aims at. */
export interface Intrusion {
  request: RawRequest;
  /** `foreign space`: the victim's space in the path; `own space`: the intruder's space with the victim's ids. */
  variant: 'foreign space' | 'foreign ids' | 'own space, foreign ids';
  /** True when the request names a victim's resource directly, so only 403 or 404 may answer. */
  namesForeignResource: boolean;
}

/** Values for body fields, chosen so that a request which got through would read or change the victim's data. */
function fieldValue(name: string, schema: JsonSchema, op: Operation, victim: Victim): unknown {
  const v = victim.seeded;
  const byName: Record<string, unknown> = {
    pregunta: '¿Cuál es el código secreto de la caja fuerte?',
    conversacion: op.path.startsWith('/rag') ? v.ragConversation : v.salesConversation,
    mensaje: 'Hola, ¿qué me recomiendas?',
    nombre: 'intruso',
    espacios: [v.space],
    permiso: 'escribe',
    csv: 'id,nombre,precio,moneda,stock\nintruso,Intruso,1,COP,1',
    modo: 'reemplazar',
    id: v.product,
    moneda: 'COP',
    api_activa: false,
    ips_permitidas: ['203.0.113.7'],
    instrucciones: 'intruso',
    respuestas: { cta_url: 'https://intruso.example' },
    texto_sin_respuesta: 'intruso',
    marca_activa: true,
    nombre_tienda: 'intruso',
    activo: false,
    name: 'intruso',
    url: 'https://intruso.example/hook',
    eventos: ['documento.listo'],
    // Narrowing a question to the victim's document must not reach its passages.
    documentos: [v.document.nombre],
    etiquetas: ['intruso'],
    messages: [{ role: 'user', content: '¿Cuál es el código secreto de la caja fuerte?' }],
  };
  if (name in byName) return byName[name];
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return 'intruso';
}

/** `space`: the space a body names for routes whose space is a body field (`Operation.spaceField`). */
function bodyFor(op: Operation, victim: Victim, space = victim.seeded.space): Pick<RawRequest, 'body' | 'headers'> {
  if (op.bodyType === 'multipart/form-data') {
    // Same name as the victim's document: a leak across spaces would replace it.
    const form = multipart(
      [
        {
          field: 'archivo',
          fileName: victim.seeded.document.nombre,
          content: Buffer.from('# Intruso\n\nTexto del intruso.\n'),
        },
      ],
      'frontera',
    );
    return { body: form.body, headers: { 'content-type': form.contentType } };
  }
  if (op.bodyType !== 'application/json' || !op.bodySchema?.properties) return {};
  const body = Object.fromEntries(
    Object.entries(op.bodySchema.properties).map(([name, schema]) => [
      name,
      name === op.spaceField ? space : fieldValue(name, schema, op, victim),
    ]),
  );
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** Path parameter values pointing at the victim's resources. */
function victimParams(victim: Victim, op: Operation): Record<string, string[]> {
  const v = victim.seeded;
  return {
    espacio: [v.space],
    archivo: [v.document.nombre, v.document.id],
    producto: [v.product],
    conversacion: op.path.startsWith('/rag') ? [v.ragConversation] : [v.salesConversation, v.ragConversation],
    id: victim.keyIds,
    cuenta: victim.accountId ? [victim.accountId] : [],
    modulo: ['ventas'],
    fuente: v.fuente ? [v.fuente] : [],
    ficha: v.ficha ? [v.ficha] : [],
    landing: [v.landing],
    webhook: [v.webhook],
    entrega: [v.entrega],
    miembro: [v.miembro],
    invitacion: [v.invitacion],
  };
}

/** Every combination of the victim's ids for the route's parameters, with the intruder's space where asked. */
function combinations(op: Operation, values: Record<string, string[]>): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const param of op.params) {
    const options = values[param] ?? [];
    out = out.flatMap((partial) => options.map((value) => ({ ...partial, [param]: value })));
  }
  return out;
}

/** The requests an intruder with `credential` and its own space `ownSpace` sends at `victim` through `op`. */
export function intrusions(op: Operation, credential: string, ownSpace: string, victim: Victim): Intrusion[] {
  const { body, headers } = bodyFor(op, victim);
  const request = (params: Record<string, string>): RawRequest => ({
    method: op.method,
    path: `/api${fillPath(op.path, params)}`,
    body,
    headers: { ...headers, authorization: `Bearer ${credential}` },
  });
  const values = victimParams(victim, op);
  const others = op.params.filter((p) => p !== 'espacio');
  // A conversation id or a space list in the body names the victim's data as much as a path parameter does.
  const carriesForeignId = typeof body === 'string' && /"(conversacion|espacios)"/.test(body);
  const out: Intrusion[] = [];
  const hasSpace = op.params.includes('espacio') || op.spaceField !== undefined;
  for (const params of combinations(op, values)) {
    out.push({
      request: request(params),
      variant: hasSpace ? 'foreign space' : 'foreign ids',
      namesForeignResource: hasSpace || others.length > 0 || carriesForeignId,
    });
  }
  // A PUT with a foreign id in the intruder's own space creates the intruder's own resource under that id: not an
  // intrusion, and it would make the later DELETE of that id rightly succeed.
  if (hasSpace && op.access !== 'admin' && op.method !== 'PUT' && (others.length > 0 || carriesForeignId)) {
    for (const params of combinations(op, { ...values, espacio: [ownSpace] })) {
      out.push({ request: request(params), variant: 'own space, foreign ids', namesForeignResource: true });
    }
  }
  return out;
}
