// Shape of a space's brand as stored, returned by GET /config and read by the sales agent.
// Wire names are the contract's (Spanish); every section is always complete once stored
// (missing fields are filled with defaults when a section is written).

/** Who the agent is: forms the first sentence of the persona together with the brand `name`. */
export interface Identidad {
  /** Name the agent uses to present itself, e.g. "Sofía". */
  nombre_agente: string;
  /** The agent's role, e.g. "asesora de ventas". */
  rol: string;
  /** The brand's line of business, e.g. "ropa deportiva"; empty when not set. */
  linea: string;
}

/** How the agent speaks. */
export interface Estilo {
  /** Allowed values in `TONOS` (see defaults.ts and the README). */
  tono: string[];
  /** Allowed values in `RASGOS`. */
  rasgos: string[];
  /** The only emojis the agent may use; empty means no emojis at all. */
  emojis_permitidos: string[];
  /** Emojis every answer carries; each must also be in `emojis_permitidos`. */
  emojis_obligatorios: string[];
  /** Maximum number of lines of one answer (integer 1..20). */
  max_lineas: number;
  /** No markdown (bold, lists, headers, link syntax) when true. */
  solo_texto_plano: boolean;
}

/** How the agent leads a conversation to a purchase. Free text, but never figures. */
export interface Tacticas {
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

export interface BrandConfig {
  name: string;
  activo: boolean;
  identidad: Identidad;
  estilo: Estilo;
  tacticas: Tacticas;
}

export type BrandSection = 'identidad' | 'estilo' | 'tacticas';
