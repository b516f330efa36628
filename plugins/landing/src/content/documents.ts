// Facts from the space's documents, asked to the Cerebro (no credits: the landing route charged for the whole
// page). Only answers the documents hold are kept, each with the passages it came from (provenance), and a fact
// quoting a price the catalog does not hold is dropped: prices come only from the catalog.
import type { CerebroService } from '@cerebro/sdk';
import type { CatalogFact, DocumentFact, Language, SectionId } from '../model.js';
import { cleanFact } from '../compose/copy.js';
import { unsupportedFigures } from '../safety/figures.js';

export interface FactQuestion {
  uso: DocumentFact['uso'];
  pregunta: string;
  titulo?: string;
  /**
   * A word the answer must hold to count: a relevance threshold alone accepts a passage that merely names the
   * subject, which reads as a non-answer under a specific question ("¿Qué garantía tiene?").
   */
  requiere?: RegExp;
}

/** The questions a page asks its documents, by the sections it will have. */
export function factQuestions(subject: string, sections: readonly SectionId[], idioma: Language): FactQuestion[] {
  const q: FactQuestion[] = [];
  const es = idioma !== 'en';
  q.push({ uso: 'descripcion', pregunta: es ? `¿Qué es ${subject}?` : `What is ${subject}?` });
  if (sections.includes('beneficios')) {
    for (const p of es
      ? [`¿Qué beneficios tiene ${subject}?`, `¿Por qué elegir ${subject}?`, `¿Qué ventajas ofrece ${subject}?`]
      : [`What are the benefits of ${subject}?`, `Why choose ${subject}?`])
      q.push({ uso: 'beneficios', pregunta: p });
  }
  if (sections.includes('caracteristicas')) {
    for (const p of es
      ? [`¿Qué características tiene ${subject}?`, `¿Qué incluye ${subject}?`]
      : [`What are the features of ${subject}?`, `What does ${subject} include?`])
      q.push({ uso: 'caracteristicas', pregunta: p });
  }
  if (sections.includes('preguntas_frecuentes')) {
    // Asked about the subject; shown without it, so the question reads naturally whatever the subject's number.
    const faq: [string, string, RegExp][] = es
      ? [
          [`¿Cómo funciona ${subject}?`, '¿Cómo funciona?', /funcion/i],
          [`¿Qué garantía tiene ${subject}?`, '¿Qué garantía tiene?', /garant/i],
          ['¿Cómo se hace un pedido?', '¿Cómo hago un pedido?', /pedido|compra/i],
          ['¿Cómo es el envío?', '¿Cómo es el envío?', /env[ií]|entreg/i],
        ]
      : [
          [`How does ${subject} work?`, 'How does it work?', /work/i],
          [`What warranty does ${subject} have?`, 'What is the warranty?', /warrant|guarantee/i],
          ['How do I order?', 'How do I order?', /order|buy|purchase/i],
          ['How does shipping work?', 'How does shipping work?', /ship|deliver/i],
        ];
    for (const [pregunta, titulo, requiere] of faq) q.push({ uso: 'preguntas_frecuentes', pregunta, titulo, requiere });
  }
  return q;
}

export interface DocumentOutcome {
  facts: DocumentFact[];
  avisos: string[];
}

export async function documentFacts(
  cerebro: CerebroService,
  spaceId: string,
  questions: readonly FactQuestion[],
  catalog: readonly CatalogFact[],
  signal: AbortSignal,
): Promise<DocumentOutcome> {
  const facts: DocumentFact[] = [];
  const avisos: string[] = [];
  const seen = new Set<string>();
  let failures = 0;
  for (const q of questions) {
    signal.throwIfAborted();
    let answer;
    try {
      answer = await cerebro.ask(spaceId, q.pregunta, { signal });
    } catch (err) {
      signal.throwIfAborted();
      failures++;
      continue;
    }
    if (!answer.encontrada) continue;
    const texto = cleanFact(answer.texto);
    if (!texto || seen.has(texto) || (q.requiere && !q.requiere.test(texto))) continue;
    seen.add(texto);
    const bad = unsupportedFigures(texto, { catalog, texts: [] }, { onlyMoney: true });
    if (bad.length > 0) {
      avisos.push(
        `Se descartó un dato de los documentos con un precio que el catálogo no tiene (${bad.map((b) => b.texto).join(', ')}).`,
      );
      continue;
    }
    const cited = answer.fuentes.filter((f) => f.citada);
    facts.push({
      uso: q.uso,
      pregunta: q.pregunta,
      ...(q.titulo ? { titulo: q.titulo } : {}),
      texto,
      fuentes: (cited.length ? cited : answer.fuentes.slice(0, 1)).map((f) => ({
        documento: f.documento,
        pagina: f.pagina,
        seccion: f.seccion,
      })),
    });
  }
  if (failures > 0)
    avisos.push(
      `El Cerebro no pudo responder ${failures} de ${questions.length} preguntas a los documentos; la página usa lo demás.`,
    );
  return { facts, avisos };
}
