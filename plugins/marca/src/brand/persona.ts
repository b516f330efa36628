// The persona text (GET /persona, rule 11): exactly the agent description the sales module reads.
// Order is fixed by rules 3, 4 and 10: identity sentence first, then tone, traits, length,
// plain text and emojis, and always last the fixed rules no brand can remove.
import { SALES_AGENT_FIXED_RULES, salesAgentFixedRulesText } from '@cerebro/sdk';
import type { BrandConfig } from './types.js';
import { RASGOS, TONOS } from './vocabulary.js';

/** Rules appended to every agent description, branded or not (rule 4). Never configurable; shared with ventas. */
export const REGLAS_FIJAS: readonly string[] = SALES_AGENT_FIXED_RULES;

/** Joins "a", "b", "c" as "a, b y c". */
function listaEnEspanol(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} y ${items[items.length - 1]}`;
}

function stripFinalPeriod(text: string): string {
  return text.replace(/[.\s]+$/u, '');
}

/** Rule 10: agent name, role and brand name in one sentence, plus the line of business when set. */
export function identitySentence(brand: BrandConfig): string {
  const { nombre_agente, rol, linea } = brand.identidad;
  const base = `Eres ${nombre_agente}, ${stripFinalPeriod(rol)} de ${stripFinalPeriod(brand.name)}`;
  return linea ? `${base}, ${stripFinalPeriod(linea)}.` : `${base}.`;
}

export const fixedRulesText = salesAgentFixedRulesText;

/** Builds the persona text from a complete brand. Deterministic: same brand, same text. */
export function buildPersona(brand: BrandConfig): string {
  const { estilo } = brand;
  const lines: string[] = [identitySentence(brand)];
  if (estilo.tono.length > 0) {
    lines.push(`Tu tono es ${listaEnEspanol(estilo.tono.map((t) => TONOS[t] ?? t))}.`);
  }
  if (estilo.rasgos.length > 0) {
    lines.push(`Tus rasgos: ${listaEnEspanol(estilo.rasgos.map((r) => `${r} (${RASGOS[r] ?? r})`))}.`);
  }
  lines.push(estilo.max_lineas === 1
    ? 'Responde en una sola línea.'
    : `Responde en ${estilo.max_lineas} líneas como máximo.`);
  if (estilo.solo_texto_plano) {
    lines.push('Escribe solo texto plano: sin negritas, cursivas, listas, encabezados ni enlaces con formato.');
  }
  if (estilo.emojis_permitidos.length === 0) {
    lines.push('No uses emojis.');
  } else {
    lines.push(`Usa solo estos emojis: ${estilo.emojis_permitidos.join(' ')}.`);
    if (estilo.emojis_obligatorios.length > 0) {
      lines.push(`Incluye siempre en cada respuesta: ${estilo.emojis_obligatorios.join(' ')}.`);
    }
  }
  lines.push(fixedRulesText());
  return lines.join('\n');
}
