/**
 * A client of Cerebro written only against the types `openapi-typescript` generates from `/api/openapi.json`
 * (`cerebro-api.d.ts`, written beside this file by `test/src/openapi-client.test.ts`). It is type-checked, never
 * run: every flow compiles without a cast only if the document declares its parameters, bodies and responses.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './cerebro-api.js';

type ApiError = components['schemas']['Error'];

export function cerebro(baseUrl: string, key: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });
}

/** Multipart bodies: each field of the typed body becomes a form field (files as `Blob`/`File`). */
function form(body: Record<string, Blob | Blob[] | string | number | undefined>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item instanceof Blob) data.append(name, item, item instanceof File ? item.name : name);
      else if (item !== undefined) data.append(name, String(item));
    }
  }
  return data;
}

const explain = (error: ApiError): string =>
  `${error.codigo}: ${typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail)}`;

export async function mainFlows(baseUrl: string, key: string, files: File[], audio: File): Promise<string[]> {
  const api = cerebro(baseUrl, key);
  const seen: string[] = [];

  // List spaces.
  const spaces = await api.GET('/companies');
  if (spaces.error) return [explain(spaces.error)];
  const espacio: string = spaces.data.espacios[0]?.id ?? 'demo';
  const modules: string[] = spaces.data.espacios.flatMap((s) => s.modulos);
  seen.push(...modules);

  // Upload documents and follow their indexing.
  const uploaded = await api.POST('/rag/{espacio}/load_documents', {
    params: { path: { espacio } },
    body: { archivos: files },
    bodySerializer: form,
  });
  for (const doc of uploaded.data?.documentos ?? []) seen.push(`${doc.nombre}: ${doc.estado}`);
  const status = await api.GET('/rag/{espacio}/indexing_status', { params: { path: { espacio } } });
  const ready: boolean = status.data?.listo ?? false;
  const progress: number = status.data?.documentos.reduce((sum, d) => sum + d.progreso, 0) ?? 0;
  seen.push(`listo=${ready} progreso=${progress}`);
  const page = await api.GET('/rag/{espacio}/documents', {
    params: { path: { espacio }, query: { limite: 10, desde: 0 } },
  });
  const bytes: number = page.data?.documentos.reduce((sum, d) => sum + d.bytes, 0) ?? 0;
  seen.push(`${page.data?.total ?? 0} documentos, ${bytes} bytes`);

  // Ask, then continue the conversation.
  const answer = await api.POST('/rag/{espacio}/conversations', {
    params: { path: { espacio } },
    body: { pregunta: '¿Cómo se instala?' },
  });
  if (answer.error) return [explain(answer.error)];
  const cited: string[] = answer.data.fuentes
    .filter((f) => f.citada)
    .map((f) => `${f.documento} p. ${f.pagina ?? '-'}`);
  seen.push(answer.data.respuesta, ...cited, `${answer.data.creditos} créditos`);
  const next = await api.POST('/rag/{espacio}/conversations', {
    params: { path: { espacio } },
    body: { pregunta: '¿Y después?', conversacion: answer.data.conversacion },
  });
  const found: boolean = next.data?.encontrada ?? false;
  seen.push(`encontrada=${found}`);

  // Read and patch how the space answers.
  const config = await api.GET('/rag/{espacio}/config', { params: { path: { espacio } } });
  const passages: number = config.data?.pasajes ?? 0;
  const patched = await api.PATCH('/rag/{espacio}/config', {
    params: { path: { espacio } },
    body: { longitud: 'corta', pasajes: passages + 1 },
  });
  const length: 'corta' | 'media' | 'larga' | undefined = patched.data?.longitud;
  seen.push(`longitud=${length ?? '?'}`);

  // Create, list and revoke keys.
  const created = await api.POST('/tokens', { body: { nombre: 'integración', espacios: [espacio], permiso: 'lee' } });
  if (created.error) return [explain(created.error)];
  const secret: string = created.data.token.token;
  seen.push(secret.slice(0, 4));
  const keys = await api.GET('/tokens');
  const calls: number = keys.data?.tokens.reduce((sum, k) => sum + k.llamadas, 0) ?? 0;
  seen.push(`${calls} llamadas`);
  const revoked = await api.DELETE('/tokens/{id}', { params: { path: { id: created.data.token.id } } });
  if (revoked.error) seen.push(explain(revoked.error));
  else seen.push(revoked.data.revocado);

  // The credit pool of the space's account.
  const account = await api.GET('/companies/{espacio}/cuenta', { params: { path: { espacio } } });
  if (account.data) {
    const pool = await api.GET('/cuentas/{cuenta}/bolsa', {
      params: { path: { cuenta: account.data.cuenta.id }, query: { movimientos: 5 } },
    });
    const deltas: number[] = pool.data?.movimientos.map((m) => m.delta) ?? [];
    seen.push(`saldo=${pool.data?.saldo ?? 0}`, ...deltas.map(String));
  }

  // Brand configuration (module marca).
  const brand = await api.GET('/mod/marca/{espacio}/config', { params: { path: { espacio } } });
  const tones: string[] = brand.data?.estilo.tono ?? [];
  const renamed = await api.PATCH('/mod/marca/{espacio}/config', {
    params: { path: { espacio } },
    body: { name: 'Sol Deportes', estilo: { tono: ['cercano', ...tones].slice(0, 3) } },
  });
  seen.push(renamed.data?.name ?? '');

  // A customer message to the sales agent (module ventas).
  const turn = await api.POST('/mod/ventas/{espacio}/conversaciones', {
    params: { path: { espacio } },
    body: { mensaje: 'Hola, ¿tienen camisetas?', contacto: { nombre: 'Ana' } },
  });
  if (turn.data) {
    const reply: string | null = turn.data.respuesta;
    const total: number = turn.data.cotizacion.total;
    seen.push(reply ?? '(con una persona)', `total=${total}`, turn.data.estado);
    const leads = await api.GET('/mod/ventas/{espacio}/conversaciones', {
      params: { path: { espacio }, query: { estado: 'activa', limite: 20 } },
    });
    seen.push(...(leads.data?.conversaciones.map((c) => c.conversacion) ?? []));
  }

  // An audio transcription (module transcripcion).
  const transcript = await api.POST('/mod/transcripcion/{espacio}/transcripciones', {
    params: { path: { espacio } },
    body: { archivo: audio, idioma: 'es' },
    bodySerializer: form,
  });
  if (transcript.error) seen.push(explain(transcript.error));
  else seen.push(transcript.data.texto, `${transcript.data.duracion_s} s`);

  return seen;
}
