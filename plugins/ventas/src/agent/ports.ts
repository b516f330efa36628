// What the sales agent needs from outside and what it returns: the contract the ventas routes,
// storage and the host wiring implement. Everything here is plain data or async functions.
import type { AgentBrand, BrandOrigin } from './brand.js';
import type { Product } from './catalog.js';
import type { LeadsConfig } from './config.js';
import type { FigureViolation } from './figures.js';
import type { ConversationState } from './state.js';
import type { AnswerKind } from './tactics.js';

export interface CatalogSource {
  /** All products of the space (the agent matches and checks against the whole catalog). */
  products(espacio: string): Promise<readonly Product[]> | readonly Product[];
}

export interface KnowledgeRequest {
  espacio: string;
  pregunta: string;
  /** The agent description in use (persona or own), for an engine that words with it. */
  descripcion: string;
}

export interface KnowledgeSource {
  /** Answer from the space's documents, or null when they do not cover the question. */
  answer(request: KnowledgeRequest): Promise<string | null>;
}

export interface WordingRequest {
  /** System description: the brand persona or the agent's own, always ending in the fixed rules. */
  descripcion: string;
  mensaje: string;
  /** The deterministic answer, with every figure already correct: the wording must keep its facts. */
  borrador: string;
  tipo: AnswerKind;
}

/** An external text generator (OpenAI-compatible endpoint) that rewrites the draft in the brand's voice. */
export interface Wording {
  reword(request: WordingRequest): Promise<string>;
}

export interface BrandProvider {
  get(espacio: string): Promise<{ brand: AgentBrand | null; origen: BrandOrigin }>;
}

/** Events for logs/metrics; they never carry message or answer text. */
export type AgentEvent =
  | { tipo: 'cifra_corregida'; espacio: string; violaciones: FigureViolation[]; fuente: 'redaccion' | 'respuesta' }
  | { tipo: 'marca_no_disponible'; espacio: string; origen: BrandOrigin }
  | { tipo: 'fuente_fallo'; espacio: string; fuente: 'conocimiento' | 'redaccion' | 'catalogo' }
  /** A bug in the agent itself; `mensaje` is the error message (never customer text). */
  | { tipo: 'error_interno'; espacio: string; mensaje: string };

export interface AgentDeps {
  catalog: CatalogSource;
  knowledge: KnowledgeSource;
  brands: BrandProvider;
  wording?: Wording;
  /** Time limit for knowledge and wording calls (ms). Default 10 s. */
  timeoutMs?: number;
  onEvent?: (event: AgentEvent) => void;
}

export interface TurnInput {
  espacio: string;
  mensaje: string;
  state: ConversationState;
  config: LeadsConfig;
  /** Whether the space has the marca module (rule 1). */
  brandEnabled: boolean;
}

export interface TurnResult {
  state: ConversationState;
  /** The answer to send; null when the conversation is with a person and the agent stays silent. */
  respuesta: string | null;
  tipo: AnswerKind | null;
  marca: { aplicada: boolean; origen: BrandOrigin | 'no_aplica' };
  /** The agent description used for this answer (brand persona or own description). */
  descripcion: string;
  suggestedCombo: string | null;
  closingPrompt: string | null;
  /** Figures caught and removed before sending (empty when the answer passed as composed). */
  correcciones: FigureViolation[];
  redaccion: 'plantilla' | 'externa';
}
