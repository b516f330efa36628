// Default brand: what a never-configured space returns (rule 12) and what a field missing
// inside a PATCHed section returns to (section 4.C, point 1). Fresh objects on every call so
// callers can never mutate a shared default.
import type { BrandConfig, Estilo, Identidad, Tacticas } from './types.js';

export function defaultIdentidad(): Identidad {
  return { nombre_agente: 'Asistente', rol: 'asesor de ventas', linea: '' };
}

export function defaultEstilo(): Estilo {
  return {
    tono: ['cercano', 'profesional'],
    rasgos: ['servicial', 'honesto'],
    emojis_permitidos: [],
    emojis_obligatorios: [],
    max_lineas: 6,
    solo_texto_plano: true,
  };
}

export function defaultTacticas(): Tacticas {
  return {
    upsell_activo: false,
    upsell_combos: {},
    upsell_argumento: '',
    upsell_plantilla: 'Te recomiendo sumar {combo}. {argumento}',
    pregunta_cierre_obligatoria: false,
    preguntas_cierre: ['¿Quieres que te prepare una cotización?', '¿A qué ciudad te lo enviamos?'],
  };
}

/**
 * Brand of a space that never configured one: `name` is the space id. `activo` defaults to true
 * because the sales module's `marca_activa` (off by default) is already the opt-in switch;
 * a second switch that is also off would make turning on `marca_activa` look broken.
 */
export function defaultBrand(spaceId: string): BrandConfig {
  return {
    name: spaceId,
    activo: true,
    identidad: defaultIdentidad(),
    estilo: defaultEstilo(),
    tacticas: defaultTacticas(),
  };
}
