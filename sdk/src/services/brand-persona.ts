// The persona text of a brand: exactly the agent description the sales module reads (marca's GET /persona, rule 11),
// also what Studio's brand editor shows while typing. Here, beside the brand's shape and the fixed rules, because
// three places build the same text from it: the marca module, and the console, which must not import a plugin.
// Order is fixed by rules 3, 4 and 10: identity sentence first, then tone, traits, length, plain text and emojis,
// and always last the fixed rules no brand can remove. No imports but ./brand.js: Studio bundles this file.
import { salesAgentFixedRulesText, type BrandConfig } from './brand.js';

// Allowed values of `estilo.tono` and `estilo.rasgos`, each with the instruction the persona text gives for it. A
// closed list keeps the persona predictable: every value has wording that was written and reviewed once.

/** tono value -> how the persona text describes it. */
export const BRAND_TONES: Readonly<Record<string, string>> = {
  cercano: 'cercano: tutea al cliente y habla como alguien de confianza',
  formal: 'formal: trata al cliente de usted y cuida la cortesía',
  amable: 'amable: saluda con calidez y agradece cada consulta',
  entusiasta: 'entusiasta: transmite ganas por los productos sin exagerar',
  profesional: 'profesional: claro, preciso y sin rodeos',
  divertido: 'divertido: admite algún toque de humor ligero',
  sereno: 'sereno: calmado y paciente, sin presionar',
  tecnico: 'técnico: usa el vocabulario exacto de los productos',
};

/** rasgo value -> what the agent does because of it (gender-neutral on purpose). */
export const BRAND_TRAITS: Readonly<Record<string, string>> = {
  empatico: 'te pones en el lugar del cliente',
  resolutivo: 'vas al grano y resuelves',
  paciente: 'explicas las veces que haga falta',
  experto: 'conoces bien los productos y lo demuestras',
  optimista: 'destacas lo positivo',
  detallista: 'cuidas los detalles de cada pedido',
  servicial: 'buscas ayudar en cada mensaje',
  honesto: 'dices las cosas como son',
  creativo: 'propones ideas para usar los productos',
  directo: 'respondes en pocas palabras',
};

/** Joins "a", "b", "c" as "a, b y c". */
function spanishList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} y ${items[items.length - 1]}`;
}

function stripFinalPeriod(text: string): string {
  return text.replace(/[.\s]+$/u, '');
}

/** Lower case without accents, for "does this text already name the shop" comparisons. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The agent's role at its shop, naming the shop once: "asesora de ventas de Deportes Ruiz"; the role alone when it
 * already names the shop ("asesora de ventas de Deportes Ruiz" written as the role) or there is no shop name. `link`
 * is the preposition before the shop ("de" in the persona, "en" where the agent introduces itself to a customer).
 */
export function roleAtShop(rol: string, shop: string | null, link: 'de' | 'en' = 'de'): string {
  const role = stripFinalPeriod(rol);
  const name = shop === null ? '' : stripFinalPeriod(shop);
  if (name === '' || folded(role).includes(folded(name))) return role;
  return role === '' ? `${link} ${name}` : `${role} ${link} ${name}`;
}

/**
 * Rule 10: agent name, role and shop name in one sentence, plus the line of business when set. The shop is the
 * brand's `name` unless the caller knows a better one (the sales module's shop name when the brand was never named).
 */
export function brandIdentitySentence(brand: BrandConfig, shop: string | null = brand.name): string {
  const { nombre_agente, rol, linea } = brand.identidad;
  const base = `Eres ${nombre_agente}, ${roleAtShop(rol, shop)}`;
  return linea ? `${base}, ${stripFinalPeriod(linea)}.` : `${base}.`;
}

/** Builds the persona text from a complete brand. Deterministic: same brand, same text. */
export function buildPersona(brand: BrandConfig): string {
  const { estilo } = brand;
  const lines: string[] = [brandIdentitySentence(brand)];
  if (estilo.tono.length > 0) {
    lines.push(`Tu tono es ${spanishList(estilo.tono.map((t) => BRAND_TONES[t] ?? t))}.`);
  }
  if (estilo.rasgos.length > 0) {
    lines.push(`Tus rasgos: ${spanishList(estilo.rasgos.map((r) => `${r} (${BRAND_TRAITS[r] ?? r})`))}.`);
  }
  lines.push(
    estilo.max_lineas === 1 ? 'Responde en una sola línea.' : `Responde en ${estilo.max_lineas} líneas como máximo.`,
  );
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
  lines.push(salesAgentFixedRulesText());
  return lines.join('\n');
}
