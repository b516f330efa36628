/**
 * The brand a space's sales agent wears, as the `marca` module hands it to other modules (contract section 2,
 * "Brand configuration"), with the persona text it reads before answering.
 */
export interface BrandSnapshot {
  name: string;
  activo: boolean;
  identidad: { nombre_agente: string; rol: string; linea: string };
  estilo: {
    tono: string[];
    rasgos: string[];
    emojis_permitidos: string[];
    emojis_obligatorios: string[];
    max_lineas: number;
    solo_texto_plano: boolean;
  };
  tacticas: {
    upsell_activo: boolean;
    upsell_combos: Record<string, string>;
    upsell_argumento: string;
    upsell_plantilla: string;
    pregunta_cierre_obligatoria: boolean;
    preguntas_cierre: string[];
  };
  /** Exactly what `GET /mod/marca/{espacio}/persona` returns. */
  persona: string;
}

/** Provided by `marca`, used (optionally) by `ventas`. */
export interface BrandReader {
  read(spaceId: string): Promise<BrandSnapshot>;
}
