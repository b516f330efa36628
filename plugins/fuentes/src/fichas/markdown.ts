import type { FichaRecord } from './ficha-model.js';

const cites = (ns: readonly number[]) => ns.map((n) => `[${n}]`).join('');
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The ficha as Markdown: one section per field with its value and citations [n], conflicts and missing data said
 * plainly, then the numbered sources (document, URL for web pages, section, score).
 */
export function fichaMarkdown(ficha: FichaRecord): string {
  const result = ficha.result!;
  const out = [`# ${oneLine(ficha.request.tema)}`, ''];
  if (result.campos_propuestos) out.push('_Campos propuestos a partir de los documentos._', '');
  if (result.campos.length === 0) out.push('Los documentos no tienen información sobre este tema.', '');
  for (const field of result.campos) {
    out.push(`## ${oneLine(field.nombre)}`, '');
    if (!field.encontrado) out.push(`**Sin datos.** ${field.motivo ?? ''}`.trim(), '');
    else out.push(`${oneLine(field.valor!)} ${cites(field.citas)}`, '');
    if (field.conflicto) {
      out.push('> **Conflicto entre documentos:**');
      for (const v of field.conflicto.valores) out.push(`> - ${oneLine(v.valor)} ${cites(v.citas)}`);
      out.push('');
    }
  }
  if (result.fuentes.length) {
    out.push('## Fuentes', '');
    for (const s of result.fuentes) {
      const where = [s.seccion && `sección «${oneLine(s.seccion)}»`, s.pagina !== null && `página ${s.pagina}`]
        .filter(Boolean)
        .join(', ');
      out.push(
        `${s.n}. ${s.url ? `[${oneLine(s.documento)}](${s.url})` : oneLine(s.documento)}${where ? ` — ${where}` : ''} (puntuación ${s.puntuacion})`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}
