// What `GET /api/modelos` tells an owner: which embedding, reranking and answer models this server uses (a local
// directory's name or an endpoint's address, never a key or a path on the server) and whether each answers now.
import { basename } from 'node:path';
import type { HostConfig } from '../config/host-config.js';
import type { LocalModelStanding, SearchModels } from './search-models.js';

export type ModelsConfig = Pick<
  HostConfig,
  | 'embeddingModelDir'
  | 'embeddingUrl'
  | 'embeddingModel'
  | 'embeddingApiKey'
  | 'rerankModelDir'
  | 'rerankUrl'
  | 'rerankModel'
  | 'rerankApiKey'
  | 'llmUrl'
  | 'llmModel'
  | 'llmApiKey'
>;

/** `activo`: loaded here; `responde` / `no_responde` / `rechaza_la_clave`: what its endpoint said just now. */
export type ModelState = LocalModelStanding | 'responde' | 'no_responde' | 'rechaza_la_clave';

export interface ModelView {
  /** `local` (an ONNX directory on the server), `servicio` (an endpoint) or null (none configured). */
  tipo: 'local' | 'servicio' | null;
  modelo: string | null;
  /** The endpoint's address without credentials or query (null for a local model). */
  direccion: string | null;
  estado: ModelState;
  /** One Spanish sentence on what the state means for answers. */
  detalle: string;
}

export interface ModelsView {
  embeddings: ModelView;
  reordenacion: ModelView;
  respuestas: ModelView;
  comprobado: string;
}

/** Probes are cached this long: a page opened by several owners does not knock on an endpoint each time. */
const PROBE_CACHE_MS = 30_000;
const PROBE_TIMEOUT_MS = 3_000;

/** An address fit to show: scheme, host, port and path; no user, password, query or fragment. */
export function shownAddress(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(dirección no válida)';
  }
}

type Probe = (baseUrl: string, apiKey: string) => Promise<'responde' | 'no_responde' | 'rechaza_la_clave'>;

/**
 * An OpenAI-compatible endpoint is asked for `GET <base>/models`: any answer but a server error means it is there;
 * 401 or 403 means it is there but refuses the configured key.
 */
export const probeEndpoint: Probe = async (baseUrl, apiKey) => {
  try {
    const url = new URL(baseUrl);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/models`;
    const res = await fetch(url, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      redirect: 'manual',
    });
    await res.body?.cancel();
    if (res.status === 401 || res.status === 403) return 'rechaza_la_clave';
    return res.status < 500 ? 'responde' : 'no_responde';
  } catch {
    return 'no_responde';
  }
};

const DETAIL: Record<string, Record<ModelState, string>> = {
  embeddings: {
    activo: 'Cargado: las preguntas se buscan por texto y por significado.',
    responde: 'El servicio responde: las preguntas se buscan por texto y por significado.',
    fallando: 'Falló en la última pregunta, que se buscó solo por texto.',
    no_cargado: 'Configurado pero no se pudo cargar: las preguntas se buscan solo por texto.',
    no_responde: 'El servicio no responde: las preguntas se buscan solo por texto mientras no responda.',
    rechaza_la_clave: 'El servicio rechaza la clave configurada: las preguntas se buscan solo por texto.',
    sin_configurar: 'Sin modelo: las preguntas se buscan por texto.',
  },
  reordenacion: {
    activo: 'Cargado: reordena los mejores pasajes de cada pregunta.',
    responde: 'El servicio responde: reordena los mejores pasajes de cada pregunta.',
    fallando: 'Falló o tardó demasiado en la última pregunta: se usó el orden de la búsqueda.',
    no_cargado: 'Configurado pero no se pudo cargar: se usa el orden de la búsqueda.',
    no_responde: 'El servicio no responde: se usa el orden de la búsqueda mientras no responda.',
    rechaza_la_clave: 'El servicio rechaza la clave configurada: se usa el orden de la búsqueda.',
    sin_configurar: 'Sin modelo: se usa el orden de la búsqueda.',
  },
  respuestas: {
    activo: 'Redacta las respuestas con los pasajes encontrados.',
    responde: 'El servicio responde: redacta las respuestas con los pasajes encontrados.',
    fallando: 'Falló en la última respuesta.',
    no_cargado: 'No disponible.',
    no_responde: 'El servicio no responde: las preguntas fallarán mientras no responda.',
    rechaza_la_clave: 'El servicio rechaza la clave configurada: las preguntas fallarán.',
    sin_configurar:
      'Sin modelo de lenguaje: las respuestas se componen con frases de los documentos (modo extractivo).',
  },
};

/** Builds the view, probing the endpoints at most once every 30 s. */
export class ModelStatus {
  private cached: { at: number; view: Promise<ModelsView> } | null = null;

  constructor(
    private readonly config: ModelsConfig,
    private readonly models: Pick<SearchModels, 'standing'>,
    private readonly now: () => number,
    private readonly probe: Probe = probeEndpoint,
  ) {}

  view(): Promise<ModelsView> {
    const now = this.now();
    if (!this.cached || now - this.cached.at >= PROBE_CACHE_MS) this.cached = { at: now, view: this.build(now) };
    return this.cached.view;
  }

  private async build(now: number): Promise<ModelsView> {
    const c = this.config;
    const standing = this.models.standing();
    const [embeddings, reordenacion, respuestas] = await Promise.all([
      this.one(
        'embeddings',
        c.embeddingModelDir,
        c.embeddingUrl,
        c.embeddingModel,
        c.embeddingApiKey,
        standing.embeddings,
      ),
      this.one('reordenacion', c.rerankModelDir, c.rerankUrl, c.rerankModel, c.rerankApiKey, standing.reordenacion),
      this.one('respuestas', '', c.llmUrl, c.llmModel, c.llmApiKey, 'sin_configurar'),
    ]);
    return { embeddings, reordenacion, respuestas, comprobado: new Date(now).toISOString() };
  }

  private async one(
    what: keyof typeof DETAIL,
    dir: string,
    url: string,
    model: string,
    apiKey: string,
    standing: LocalModelStanding,
  ): Promise<ModelView> {
    const view = (tipo: ModelView['tipo'], modelo: string | null, direccion: string | null, estado: ModelState) => ({
      tipo,
      modelo,
      direccion,
      estado,
      detalle: DETAIL[what]![estado],
    });
    if (dir) return view('local', basename(dir), null, standing);
    if (!url) return view(null, null, null, 'sin_configurar');
    // A model that failed to load, or failed lately, says so even if its endpoint answers a list of models.
    const answered = await this.probe(url, apiKey);
    const estado =
      answered === 'responde' && (standing === 'no_cargado' || standing === 'fallando') ? standing : answered;
    return view('servicio', model || null, shownAddress(url), estado);
  }
}
