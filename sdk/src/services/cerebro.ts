/**
 * A passage considered for an answer: the cited ones first (`citada: true`, numbered as the [n] in the text), then the
 * other relevant passages retrieved (`citada: false`).
 */
export interface CerebroSource {
  documento: string;
  pagina: number | null;
  seccion: string | null;
  puntuacion: number;
  extracto: string;
  /** True when the answer cites this passage. */
  citada: boolean;
}

export interface CerebroAnswer {
  texto: string;
  /** False when the space's documents do not contain the answer (`texto` is then the space's no-answer text). */
  encontrada: boolean;
  fuentes: CerebroSource[];
}

/**
 * Questions to the documents of a space, for plugins (the sales agent asks it what the catalog does not cover).
 * Uses the space's answering settings; charges no credits and keeps no conversation: the calling route decides both.
 */
export interface CerebroService {
  ask(spaceId: string, question: string, options?: { signal?: AbortSignal }): Promise<CerebroAnswer>;
  /** True when an OpenAI-compatible chat endpoint is configured (`CEREBRO_LLM_URL`). */
  readonly generative: boolean;
  /**
   * One chat completion on the configured endpoint (for wording). Rejects when none is configured or it fails:
   * callers keep a deterministic text to fall back on.
   */
  complete(
    messages: { role: 'system' | 'user' | 'assistant'; content: string }[],
    options?: { signal?: AbortSignal; maxTokens?: number },
  ): Promise<string>;
}
