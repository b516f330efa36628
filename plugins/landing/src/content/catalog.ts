// Products for a page come only from the ventas catalog. What the catalog cannot give (a product it does not
// have, a product without a price) and what only the caller knows (where the button leads, a contact) become
// questions of a `faltan_datos` version instead of guesses.
import type { CatalogProduct } from '@cerebro/sdk';
import type { Brief, CatalogFact, Question } from '../model.js';

export interface CatalogOutcome {
  facts: CatalogFact[];
  preguntas: Question[];
}

export const RETRY = 'reintentar';
export const OMIT = 'omitir';
export const WITHOUT_PRICE = 'sin_precio';

/**
 * Picks the brief's products from the catalog, applying earlier answers (`omitir`, `sin_precio`); a `reintentar`
 * answer simply reads the catalog again, so a product still missing is asked about again.
 */
export function catalogFacts(
  brief: Brief,
  products: readonly CatalogProduct[],
  respuestas: Readonly<Record<string, string>>,
): CatalogOutcome {
  const facts: CatalogFact[] = [];
  const preguntas: Question[] = [];
  for (const id of brief.productos) {
    const answerProduct = respuestas[`producto:${id}`];
    const product = products.find((p) => p.id === id);
    if (!product) {
      if (answerProduct === OMIT) continue;
      preguntas.push({
        id: `producto:${id}`,
        tipo: 'opcion',
        opciones: [RETRY, OMIT],
        pregunta: `El producto «${id}» no está en el catálogo de ventas. Añádelo al catálogo y responde «${RETRY}», o responde «${OMIT}» para hacer la página sin él.`,
      });
      continue;
    }
    const fact: CatalogFact = {
      id: product.id,
      nombre: product.nombre,
      descripcion: product.descripcion,
      precio: product.precio,
      moneda: product.moneda,
      stock: product.stock,
    };
    if (product.precio <= 0) {
      const answerPrice = respuestas[`precio:${id}`];
      if (answerPrice === OMIT) continue;
      if (answerPrice !== WITHOUT_PRICE) {
        preguntas.push({
          id: `precio:${id}`,
          tipo: 'opcion',
          opciones: [RETRY, WITHOUT_PRICE, OMIT],
          pregunta: `«${product.nombre}» no tiene precio en el catálogo. Ponle precio en el catálogo y responde «${RETRY}», responde «${WITHOUT_PRICE}» para mostrarlo como «precio a consultar», u «${OMIT}» para dejarlo fuera.`,
        });
        continue;
      }
      fact.sin_precio = true;
    }
    facts.push(fact);
  }
  return { facts, preguntas };
}

/** Questions about what only the caller knows. */
export function briefQuestions(brief: Brief, sections: readonly string[] | null): Question[] {
  const preguntas: Question[] = [];
  if (!brief.cta.url) {
    preguntas.push({
      id: 'cta_url',
      tipo: 'url',
      pregunta: `¿A qué dirección lleva el botón${brief.cta.texto ? ` «${brief.cta.texto}»` : ''}? Una URL https://, mailto: o tel:.`,
    });
  }
  if (sections?.includes('contacto') && !brief.contacto) {
    preguntas.push({
      id: 'contacto',
      tipo: 'contacto',
      pregunta: 'La sección de contacto necesita un correo electrónico o un teléfono: ¿cuál mostramos?',
    });
  }
  return preguntas;
}
