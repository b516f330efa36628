// PATCH /config semantics (section 4.C): each section present in the body replaces the stored
// one whole, fields missing inside it return to their defaults, and whatever is not sent stays.
// Validation collects every problem at once, each naming its field, so one 422 tells the
// client everything to fix.
import { defaultEstilo, defaultIdentidad, defaultTacticas } from './defaults.js';
import type { BrandConfig, Estilo, Identidad, Tacticas } from './types.js';
import { MAX_LINEAS_MAX, MAX_LINEAS_MIN, RASGOS, TONOS, TONOS_INCOMPATIBLES } from './vocabulary.js';

export interface FieldError {
  /** Dotted path of the field, e.g. `estilo.max_lineas`. */
  campo: string;
  /** Spanish message, already naming the field. */
  mensaje: string;
}

export type PatchResult =
  | { ok: true; brand: BrandConfig }
  | { ok: false; errores: FieldError[] /** all messages joined: ready for a 422 `detail` */; detail: string };

const TOP_LEVEL = ['name', 'activo', 'identidad', 'estilo', 'tacticas'] as const;
const MAX_TONOS = 3;
const MAX_RASGOS = 5;
const MAX_EMOJIS = 10;
const MAX_COMBOS = 30;
const MAX_CLOSING_QUESTIONS = 10;

/** Lower-case, accents removed: how tono and rasgos values are compared and stored. */
export function foldKey(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

// One emoji (possibly with skin tone, variation selector or ZWJ sequence), nothing else.
const SINGLE_EMOJI =
  /^\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|\u200D\p{Extended_Pictographic}\uFE0F?)*$/u;
const HAS_DIGIT = /\p{Nd}/u;

class Collector {
  readonly errors: FieldError[] = [];
  add(field: string, message: string): void {
    this.errors.push({ campo: field, mensaje: `${field}: ${message}` });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rejectUnknown(obj: Record<string, unknown>, allowed: readonly string[], prefix: string, c: Collector): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) c.add(prefix ? `${prefix}.${key}` : key, 'campo desconocido');
  }
}

function readText(
  obj: Record<string, unknown>,
  key: string,
  field: string,
  fallback: string,
  limits: { min: number; max: number; noDigits?: boolean },
  c: Collector,
): string {
  if (!Object.hasOwn(obj, key)) return fallback;
  const value = obj[key];
  if (typeof value !== 'string') {
    c.add(field, 'debe ser un texto');
    return fallback;
  }
  const text = value.trim();
  if (text.length < limits.min || text.length > limits.max) {
    c.add(
      field,
      limits.min > 0
        ? `debe tener entre ${limits.min} y ${limits.max} caracteres`
        : `no puede superar ${limits.max} caracteres`,
    );
  } else if (limits.noDigits && HAS_DIGIT.test(text)) {
    c.add(field, 'no puede contener cifras: precios, descuentos, plazos y existencias salen solo del catálogo');
  }
  return text;
}

function readBoolean(
  obj: Record<string, unknown>,
  key: string,
  field: string,
  fallback: boolean,
  c: Collector,
): boolean {
  if (!Object.hasOwn(obj, key)) return fallback;
  const value = obj[key];
  if (typeof value !== 'boolean') {
    c.add(field, 'debe ser verdadero o falso (true/false)');
    return fallback;
  }
  return value;
}

function readStringArray(obj: Record<string, unknown>, key: string, field: string, c: Collector): string[] | undefined {
  if (!Object.hasOwn(obj, key)) return undefined;
  const value = obj[key];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    c.add(field, 'debe ser una lista de textos');
    return undefined;
  }
  return value.map((v: string) => v.trim());
}

/** Values from a closed vocabulary: folded, each allowed, no repeats, at most `max`. */
function readVocabulary(
  obj: Record<string, unknown>,
  key: string,
  field: string,
  allowed: Readonly<Record<string, string>>,
  max: number,
  fallback: string[],
  c: Collector,
): string[] {
  const raw = readStringArray(obj, key, field, c);
  if (raw === undefined) return fallback;
  const values = raw.map(foldKey);
  const unknown = values.filter((v) => !Object.hasOwn(allowed, v));
  if (unknown.length > 0) {
    c.add(field, `valor no permitido «${unknown.join('», «')}»; permitidos: ${Object.keys(allowed).join(', ')}`);
  }
  if (new Set(values).size !== values.length) c.add(field, 'tiene valores repetidos');
  if (values.length > max) c.add(field, `admite como máximo ${max} valores`);
  return values;
}

function readEmojis(
  obj: Record<string, unknown>,
  key: string,
  field: string,
  fallback: string[],
  c: Collector,
): string[] {
  const raw = readStringArray(obj, key, field, c);
  if (raw === undefined) return fallback;
  const bad = raw.filter((e) => !SINGLE_EMOJI.test(e));
  if (bad.length > 0) c.add(field, `cada elemento debe ser un solo emoji («${bad.join('», «')}» no lo es)`);
  if (new Set(raw).size !== raw.length) c.add(field, 'tiene emojis repetidos');
  if (raw.length > MAX_EMOJIS) c.add(field, `admite como máximo ${MAX_EMOJIS} emojis`);
  return raw;
}

function parseIdentidad(value: unknown, c: Collector): Identidad {
  const d = defaultIdentidad();
  if (!isPlainObject(value)) {
    c.add('identidad', 'debe ser un objeto');
    return d;
  }
  rejectUnknown(value, Object.keys(d), 'identidad', c);
  return {
    nombre_agente: readText(value, 'nombre_agente', 'identidad.nombre_agente', d.nombre_agente, { min: 1, max: 40 }, c),
    rol: readText(value, 'rol', 'identidad.rol', d.rol, { min: 1, max: 80 }, c),
    linea: readText(value, 'linea', 'identidad.linea', d.linea, { min: 0, max: 120 }, c),
  };
}

function parseEstilo(value: unknown, c: Collector): Estilo {
  const d = defaultEstilo();
  if (!isPlainObject(value)) {
    c.add('estilo', 'debe ser un objeto');
    return d;
  }
  rejectUnknown(value, Object.keys(d), 'estilo', c);
  const tono = readVocabulary(value, 'tono', 'estilo.tono', TONOS, MAX_TONOS, d.tono, c);
  for (const [a, b] of TONOS_INCOMPATIBLES) {
    if (tono.includes(a) && tono.includes(b)) c.add('estilo.tono', `«${a}» y «${b}» no se pueden combinar`);
  }
  const permitidos = readEmojis(value, 'emojis_permitidos', 'estilo.emojis_permitidos', d.emojis_permitidos, c);
  const obligatorios = readEmojis(value, 'emojis_obligatorios', 'estilo.emojis_obligatorios', d.emojis_obligatorios, c);
  const outside = obligatorios.filter((e) => !permitidos.includes(e));
  if (outside.length > 0) {
    c.add('estilo.emojis_obligatorios', `«${outside.join('», «')}» debe estar también en emojis_permitidos`);
  }
  let maxLineas = d.max_lineas;
  if (Object.hasOwn(value, 'max_lineas')) {
    const v = value.max_lineas;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < MAX_LINEAS_MIN || v > MAX_LINEAS_MAX) {
      c.add('estilo.max_lineas', `debe ser un número entero entre ${MAX_LINEAS_MIN} y ${MAX_LINEAS_MAX}`);
    } else {
      maxLineas = v;
    }
  }
  return {
    tono,
    rasgos: readVocabulary(value, 'rasgos', 'estilo.rasgos', RASGOS, MAX_RASGOS, d.rasgos, c),
    emojis_permitidos: permitidos,
    emojis_obligatorios: obligatorios,
    max_lineas: maxLineas,
    solo_texto_plano: readBoolean(value, 'solo_texto_plano', 'estilo.solo_texto_plano', d.solo_texto_plano, c),
  };
}

function parseCombos(value: unknown, c: Collector): Record<string, string> {
  const field = 'tacticas.upsell_combos';
  if (!isPlainObject(value)) {
    c.add(field, 'debe ser un objeto: clave = texto del producto, valor = nombre del combo');
    return {};
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_COMBOS) c.add(field, `admite como máximo ${MAX_COMBOS} combos`);
  const combos: [string, string][] = [];
  for (const [key, combo] of entries) {
    if (key.trim() === '') c.add(field, 'las claves no pueden estar vacías');
    else if (typeof combo !== 'string' || combo.trim() === '' || combo.length > 80) {
      c.add(`${field}.${key}`, 'debe ser el nombre del combo (texto de 1 a 80 caracteres)');
    } else combos.push([key.trim(), combo.trim()]);
  }
  // fromEntries defines own properties: a product text `__proto__` stays a key, never the object's prototype.
  return Object.fromEntries(combos);
}

function parseTacticas(value: unknown, c: Collector): Tacticas {
  const d = defaultTacticas();
  if (!isPlainObject(value)) {
    c.add('tacticas', 'debe ser un objeto');
    return d;
  }
  rejectUnknown(value, Object.keys(d), 'tacticas', c);
  const template = readText(
    value,
    'upsell_plantilla',
    'tacticas.upsell_plantilla',
    d.upsell_plantilla,
    { min: 1, max: 300, noDigits: true },
    c,
  );
  if (!template.includes('{combo}')) c.add('tacticas.upsell_plantilla', 'debe incluir {combo}');
  const extra = [...template.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((p) => p !== 'combo' && p !== 'argumento');
  if (extra.length > 0)
    c.add('tacticas.upsell_plantilla', `marcador desconocido {${extra[0]}}; solo {combo} y {argumento}`);

  let questions = d.preguntas_cierre;
  const rawQuestions = readStringArray(value, 'preguntas_cierre', 'tacticas.preguntas_cierre', c);
  if (rawQuestions !== undefined) {
    questions = rawQuestions;
    if (questions.length > MAX_CLOSING_QUESTIONS)
      c.add('tacticas.preguntas_cierre', `admite como máximo ${MAX_CLOSING_QUESTIONS} preguntas`);
    questions.forEach((q, i) => {
      const field = `tacticas.preguntas_cierre[${i}]`;
      if (q.length === 0 || q.length > 200) c.add(field, 'debe tener entre 1 y 200 caracteres');
      else if (HAS_DIGIT.test(q)) c.add(field, 'no puede contener cifras');
    });
  }
  return {
    upsell_activo: readBoolean(value, 'upsell_activo', 'tacticas.upsell_activo', d.upsell_activo, c),
    upsell_combos: Object.hasOwn(value, 'upsell_combos') ? parseCombos(value.upsell_combos, c) : d.upsell_combos,
    upsell_argumento: readText(
      value,
      'upsell_argumento',
      'tacticas.upsell_argumento',
      d.upsell_argumento,
      { min: 0, max: 300, noDigits: true },
      c,
    ),
    upsell_plantilla: template,
    pregunta_cierre_obligatoria: readBoolean(
      value,
      'pregunta_cierre_obligatoria',
      'tacticas.pregunta_cierre_obligatoria',
      d.pregunta_cierre_obligatoria,
      c,
    ),
    preguntas_cierre: questions,
  };
}

/**
 * Applies a PATCH /config body to the stored brand (or the defaults of a never-configured one).
 * Pure: returns a new brand, never mutates `current`. Nothing is applied when any field fails.
 */
export function applyBrandPatch(current: BrandConfig, body: unknown): PatchResult {
  const c = new Collector();
  if (!isPlainObject(body)) {
    return {
      ok: false,
      errores: [{ campo: '', mensaje: 'el cuerpo debe ser un objeto JSON' }],
      detail: 'el cuerpo debe ser un objeto JSON',
    };
  }
  rejectUnknown(body, TOP_LEVEL, '', c);
  const next: BrandConfig = {
    name: readText(body, 'name', 'name', current.name, { min: 1, max: 80 }, c),
    activo: readBoolean(body, 'activo', 'activo', current.activo, c),
    identidad: Object.hasOwn(body, 'identidad') ? parseIdentidad(body.identidad, c) : current.identidad,
    estilo: Object.hasOwn(body, 'estilo') ? parseEstilo(body.estilo, c) : current.estilo,
    tacticas: Object.hasOwn(body, 'tacticas') ? parseTacticas(body.tacticas, c) : current.tacticas,
  };
  if (c.errors.length > 0) {
    return { ok: false, errores: c.errors, detail: c.errors.map((e) => e.mensaje).join('; ') };
  }
  return { ok: true, brand: structuredClone(next) };
}
