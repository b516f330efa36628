/**
 * The brand a space's sales agent wears (contract section 2, "Brand configuration"). Declared in the contract so
 * `marca` (which stores it) and `ventas` (which reads it) share one definition without depending on each other.
 */

/** Who the agent is: forms the first sentence of the persona together with the brand `name`. */
export interface BrandIdentidad {
  /** Name the agent uses to present itself, e.g. "Sofía". */
  nombre_agente: string;
  /** The agent's role, e.g. "asesora de ventas". */
  rol: string;
  /** The brand's line of business, e.g. "ropa deportiva"; empty when not set. */
  linea: string;
}

/** How the agent speaks. */
export interface BrandEstilo {
  /** Allowed values: see the marca module's README. */
  tono: string[];
  rasgos: string[];
  /** The only emojis the agent may use; empty means no emojis at all. */
  emojis_permitidos: string[];
  /** Emojis every answer carries; each must also be in `emojis_permitidos`. */
  emojis_obligatorios: string[];
  /** Maximum number of lines of one answer. */
  max_lineas: number;
  /** No markdown (bold, lists, headers, link syntax) when true. */
  solo_texto_plano: boolean;
}

/** How the agent leads a conversation to a purchase. Free text, never figures. */
export interface BrandTacticas {
  upsell_activo: boolean;
  /** key = text that a product name must contain, value = combo name. */
  upsell_combos: Record<string, string>;
  upsell_argumento: string;
  /** Text appended to a product answer; `{combo}` and `{argumento}` are substituted. */
  upsell_plantilla: string;
  pregunta_cierre_obligatoria: boolean;
  /** Closing questions, used in turn. */
  preguntas_cierre: string[];
}

/** A brand as stored and as `GET /mod/marca/{espacio}/config` returns it. */
export interface BrandConfig {
  name: string;
  activo: boolean;
  identidad: BrandIdentidad;
  estilo: BrandEstilo;
  tacticas: BrandTacticas;
}

/** The brand with the persona text the sales agent reads (exactly what `GET /mod/marca/{espacio}/persona` gives). */
export interface BrandSnapshot extends BrandConfig {
  persona: string;
}

/** Provided by `marca`, used (optionally) by `ventas`. */
export interface BrandReader {
  read(spaceId: string): Promise<BrandSnapshot>;
}

/**
 * The rules every sales-agent description ends with, branded or not (contract section 1, rule 4). No brand can
 * remove them; `marca` appends them to the persona and `ventas` to its own description.
 */
export const SALES_AGENT_FIXED_RULES: readonly string[] = Object.freeze([
  'No inventes precios, totales, plazos, descuentos ni disponibilidad: usa solo las cifras del catálogo y de la cotización.',
  'No hables de procesos internos.',
  'No ofrezcas un asesor humano.',
]);

/** The closing line of every agent description. */
export const salesAgentFixedRulesText = (): string =>
  `Reglas que siempre cumples: ${SALES_AGENT_FIXED_RULES.join(' ')}`;
