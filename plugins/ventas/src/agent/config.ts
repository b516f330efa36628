// Sales agent settings (GET/PATCH /api/mod/ventas/{espacio}/leads-config). PATCH changes only
// the fields sent; each is validated and errors name the field in Spanish, ready for a 422.

export interface LeadsConfig {
  /** Whether the agent wears the brand of module marca (rule 1). Off by default (section 3). */
  marca_activa: boolean;
  /** Customer messages that must pass between two combo suggestions (rule 5). */
  mensajes_entre_combos: number;
  /** Consecutive questions the agent could not answer before it hands the conversation to a person. */
  derivar_tras_fallos: number;
  /** Shop name the agent uses in its own description when the brand does not apply; empty = the space id. */
  nombre_tienda: string;
}

export function defaultLeadsConfig(): LeadsConfig {
  return { marca_activa: false, mensajes_entre_combos: 3, derivar_tras_fallos: 2, nombre_tienda: '' };
}

export type LeadsConfigResult =
  | { ok: true; config: LeadsConfig }
  | { ok: false; errores: { campo: string; mensaje: string }[]; detail: string };

function integerIn(min: number, max: number) {
  return (v: unknown) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? null
      : `debe ser un número entero entre ${min} y ${max}`;
}

const RULES: Record<keyof LeadsConfig, (v: unknown) => string | null> = {
  marca_activa: (v) => (typeof v === 'boolean' ? null : 'debe ser verdadero o falso (true/false)'),
  mensajes_entre_combos: integerIn(0, 50),
  derivar_tras_fallos: integerIn(1, 10),
  nombre_tienda: (v) =>
    typeof v === 'string' && v.trim().length <= 80 ? null : 'debe ser un texto de hasta 80 caracteres',
};

export function applyLeadsConfigPatch(current: LeadsConfig, body: unknown): LeadsConfigResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      errores: [{ campo: '', mensaje: 'el cuerpo debe ser un objeto JSON' }],
      detail: 'el cuerpo debe ser un objeto JSON',
    };
  }
  const errores: { campo: string; mensaje: string }[] = [];
  const next: LeadsConfig = { ...current };
  for (const [key, value] of Object.entries(body)) {
    // Own rules only: `toString` or `__proto__` in a body (or a stored row) is an unknown field, not a rule.
    const rule = Object.hasOwn(RULES, key) ? RULES[key as keyof LeadsConfig] : undefined;
    const problem = rule ? rule(value) : 'campo desconocido';
    if (problem) errores.push({ campo: key, mensaje: `${key}: ${problem}` });
    else (next as unknown as Record<string, unknown>)[key] = typeof value === 'string' ? value.trim() : value;
  }
  if (errores.length > 0) return { ok: false, errores, detail: errores.map((e) => e.mensaje).join('; ') };
  return { ok: true, config: next };
}

/** Stored settings back to a complete object (missing fields: defaults; bad ones: defaults). */
export function leadsConfigFromStored(stored: unknown): LeadsConfig {
  const base = defaultLeadsConfig();
  if (stored === null || stored === undefined) return base;
  const r = applyLeadsConfigPatch(base, stored);
  return r.ok ? r.config : base;
}
